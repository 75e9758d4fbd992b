import type { HttpClient, PagedList } from '../../http/http-client.js';
import type { WorkspaceEntry, WorkspaceEntryListParams, WorkspaceRaffle, WorkspaceRaffleListItem, WorkspaceRaffleListParams, Winner } from '../api-types.js';

const rafflesPath = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/raffles`;
const rafflePath = (workspaceId: string, raffleId: string) => `${rafflesPath(workspaceId)}/${encodeURIComponent(raffleId)}`;

/** A workspace's raffles, their entries and winners (workspace key). */
export class WorkspaceRafflesResource {
  constructor(private readonly http: HttpClient) {}

  list(workspaceId: string, params: WorkspaceRaffleListParams = {}): PagedList<WorkspaceRaffleListItem> {
    return this.http.list({ method: 'GET', path: rafflesPath(workspaceId), query: { ...params } });
  }

  get(workspaceId: string, raffleId: string): Promise<WorkspaceRaffle> {
    return this.http.request({ method: 'GET', path: rafflePath(workspaceId, raffleId) });
  }

  entries(workspaceId: string, raffleId: string, params: WorkspaceEntryListParams = {}): PagedList<WorkspaceEntry> {
    return this.http.list({ method: 'GET', path: `${rafflePath(workspaceId, raffleId)}/entries`, query: { ...params } });
  }

  /** The finalized winners, in position order (one array, not paged). */
  winners(workspaceId: string, raffleId: string): Promise<Winner[]> {
    return this.http.request({ method: 'GET', path: `${rafflePath(workspaceId, raffleId)}/winners` });
  }
}
