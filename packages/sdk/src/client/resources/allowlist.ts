import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import type { Allowlist, AllowlistLeaf, AllowlistLeafListParams, AllowlistLeafPage, AllowlistProof, AllowlistWallet } from '../api-types.js';

/**
 * A list of allowlist leaves: `for await` walks every leaf of the version, `.page()` fetches one
 * page, which also names the version and its root.
 */
export interface AllowlistLeafList extends PagedList<AllowlistLeaf> {
  page(page?: { cursor?: string }, options?: RequestOptions): Promise<WithResponse<AllowlistLeafPage>>;
}

/** The GET of a leaf list: the same for the keyed and the public route, whose pages are alike. */
export const allowlistLeafList = (http: HttpClient, path: string, params: AllowlistLeafListParams, options?: RequestOptions) =>
  http.list<AllowlistLeaf>({ method: 'GET', path, query: { ...params }, options }) as AllowlistLeafList;

const rafflePath = (slug: string) => `/api/v1/raffles/${encodeURIComponent(slug)}/allowlist`;
const workspaceRafflePath = (workspaceId: string, raffleId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/raffles/${encodeURIComponent(raffleId)}/allowlist`;

/**
 * Raffles' allowlists (issue 35): a winner's own leaf and proof and the wallet they name for it
 * (personal key), and a raffle's allowlist and every leaf (workspace key). The keyless public
 * routes are `fetchPublicAllowlist` and `publicAllowlistLeaves`. Check a proof offline with
 * `verifyAllowlistProof`.
 */
export class AllowlistResource {
  constructor(private readonly http: HttpClient) {}

  /** The key owner's leaf of the raffle's current version with its proof: what a mint call takes. 404 `NOT_ON_ALLOWLIST`, 409 `ALLOWLIST_NOT_PUBLISHED`. */
  proof(slug: string, options?: RequestOptions): Promise<WithResponse<AllowlistProof>> {
    return this.http.request({ method: 'GET', path: `${rafflePath(slug)}/proof`, options });
  }

  /**
   * Names the wallet the key owner's leaf is for, before the raffle's wallet deadline: one of their
   * verified wallets on its chain. Naming again replaces it. Not retried automatically (a PUT
   * without an Idempotency-Key), though repeating it is harmless.
   */
  nameWallet(slug: string, address: string, options?: RequestOptions): Promise<WithResponse<AllowlistWallet>> {
    return this.http.request({ method: 'PUT', path: `${rafflePath(slug)}/wallet`, body: { address }, options });
  }

  /** A workspace raffle's allowlist: status, settings, current root and every version. */
  get(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<WithResponse<Allowlist>> {
    return this.http.request({ method: 'GET', path: workspaceRafflePath(workspaceId, raffleId), options });
  }

  /** Every leaf of a version (the latest unless `version`), with its proof, in address order; `address` for one wallet's. */
  leaves(workspaceId: string, raffleId: string, params: AllowlistLeafListParams = {}, options?: RequestOptions): AllowlistLeafList {
    return allowlistLeafList(this.http, `${workspaceRafflePath(workspaceId, raffleId)}/leaves`, params, options);
  }
}
