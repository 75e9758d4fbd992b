import { downloadCsv, type CsvDownload } from '../../http/csv-download.js';
import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import type { WorkspaceEntry, WorkspaceEntryListParams, WorkspaceRaffle, WorkspaceRaffleListItem, WorkspaceRaffleListParams, Winner } from '../api-types.js';

const rafflesPath = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/raffles`;
const rafflePath = (workspaceId: string, raffleId: string) => `${rafflesPath(workspaceId)}/${encodeURIComponent(raffleId)}`;

/** A workspace's raffles, their entries and winners (workspace key). */
export class WorkspaceRafflesResource {
  constructor(private readonly http: HttpClient) {}

  list(workspaceId: string, params: WorkspaceRaffleListParams = {}, options?: RequestOptions): PagedList<WorkspaceRaffleListItem> {
    return this.http.list({ method: 'GET', path: rafflesPath(workspaceId), query: { ...params }, options });
  }

  get(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<WithResponse<WorkspaceRaffle>> {
    return this.http.request({ method: 'GET', path: rafflePath(workspaceId, raffleId), options });
  }

  entries(workspaceId: string, raffleId: string, params: WorkspaceEntryListParams = {}, options?: RequestOptions): PagedList<WorkspaceEntry> {
    return this.http.list({ method: 'GET', path: `${rafflePath(workspaceId, raffleId)}/entries`, query: { ...params }, options });
  }

  /** The finalized winners, in position order (one array, not paged). */
  winners(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<WithResponse<Winner[]>> {
    return this.http.request({ method: 'GET', path: `${rafflePath(workspaceId, raffleId)}/winners`, options });
  }

  /**
   * Every entry as one CSV file (`entries:read`), the bytes as they arrive: `entries`' rows, one
   * column per field, in one response whatever the raffle's size. `lastResponse.headers` has
   * the file name (`Content-Disposition`); refusals throw RaffleApiError before any byte.
   */
  exportEntriesCsv(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<CsvDownload> {
    return downloadCsv(this.http, `${rafflePath(workspaceId, raffleId)}/exports/entries.csv`, options);
  }

  /** The finalized winners as one CSV file (`winners:read`), by position, as `exportEntriesCsv` sends the entries. */
  exportWinnersCsv(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<CsvDownload> {
    return downloadCsv(this.http, `${rafflePath(workspaceId, raffleId)}/exports/winners.csv`, options);
  }
}
