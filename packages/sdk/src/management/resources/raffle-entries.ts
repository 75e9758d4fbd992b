import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ListItem, ListParams, RequestBody, ResponseBody } from '../operation-types.js';

export type RaffleEntry = ListItem<'listRaffleEntries'>;
export type ListRaffleEntriesParams = ListParams<'listRaffleEntries'>;
export type DisqualifyEntryParams = RequestBody<'disqualifyEntry'>;
/** One entry's requirement verdicts as its workspace sees them (type, label, passed): never what the entrant holds, never evidence or wallets. */
export type EntryRequirementResults = ResponseBody<'getEntryRequirementResults'>;

/** A raffle's entries as the workspace sees them (duplicate flags included). */
export class RaffleEntries {
  constructor(private readonly http: HttpClient) {}

  /** Entries in arrival order, optionally in one `status`; up to 250 a page (100 by default). Any member. */
  list(workspaceId: string, raffleId: string, params: ListRaffleEntriesParams = {}, options?: RequestOptions): PagedList<RaffleEntry> {
    return this.http.list({ method: 'GET', path: encodePath`/api/dashboard/workspaces/${workspaceId}/raffles/${raffleId}/entries`, query: { ...params }, options });
  }

  /** Which requirements an entry passed or failed (owners and admins); 404 `ENTRY_NOT_FOUND`. The entrant's `detail` is theirs alone. */
  getRequirements(workspaceId: string, raffleId: string, entryId: string, options?: RequestOptions): Promise<WithResponse<EntryRequirementResults>> {
    return this.http.request({
      method: 'GET',
      path: encodePath`/api/dashboard/workspaces/${workspaceId}/raffles/${raffleId}/entries/${entryId}/requirements`,
      options,
    });
  }

  /** Disqualifies an entry and any win it holds (owners and admins); 409 `ENTRY_CANNOT_DISQUALIFY` when it is already out. */
  disqualify(workspaceId: string, raffleId: string, entryId: string, params: DisqualifyEntryParams, options?: RequestOptions): Promise<WithResponse<ResponseBody<'disqualifyEntry'>>> {
    return this.http.request({
      method: 'POST',
      path: encodePath`/api/dashboard/workspaces/${workspaceId}/raffles/${raffleId}/entries/${entryId}/disqualify`,
      body: params,
      options,
    });
  }
}
