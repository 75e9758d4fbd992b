import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ListItem, ListParams, ResponseBody } from '../operation-types.js';

export type RaffleAllowlist = ResponseBody<'getRaffleAllowlist'>;
export type RaffleAllowlistLeaf = ListItem<'listRaffleAllowlistLeaves'>;
export type RaffleAllowlistLeafPage = ResponseBody<'listRaffleAllowlistLeaves'>;
/** The version (the latest when absent), one wallet's leaf (`address`), and the page size. */
export type ListRaffleAllowlistLeavesParams = Omit<ListParams<'listRaffleAllowlistLeaves'>, 'version'> & { version?: number };

/** A list of leaves: `for await` walks them; a page also names its version and root. */
export interface RaffleAllowlistLeafList extends PagedList<RaffleAllowlistLeaf> {
  page(page?: { cursor?: string }, options?: RequestOptions): Promise<WithResponse<RaffleAllowlistLeafPage>>;
}

const allowlistPath = (workspaceId: string, raffleId: string) => encodePath`/api/dashboard/workspaces/${workspaceId}/raffles/${raffleId}/allowlist`;

/** A raffle's allowlist as its team sees it (any member), as the data plane's workspace routes answer it. */
export class RaffleAllowlistResource {
  constructor(private readonly http: HttpClient) {}

  /** Status, settings, the current root and every published version. */
  get(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<WithResponse<RaffleAllowlist>> {
    return this.http.request({ method: 'GET', path: allowlistPath(workspaceId, raffleId), options });
  }

  /** Every leaf of a version (the latest unless `version`) with its proof, in address order; `address` for one wallet's. Up to 250 a page. */
  leaves(workspaceId: string, raffleId: string, params: ListRaffleAllowlistLeavesParams = {}, options?: RequestOptions): RaffleAllowlistLeafList {
    return this.http.list<RaffleAllowlistLeaf>({ method: 'GET', path: `${allowlistPath(workspaceId, raffleId)}/leaves`, query: { ...params }, options }) as RaffleAllowlistLeafList;
  }
}
