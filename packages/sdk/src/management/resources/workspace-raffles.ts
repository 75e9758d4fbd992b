import { newIdempotencyKey, type RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ListItem, ListParams, ManagementSchemas, RequestBody } from '../operation-types.js';
import { RaffleAllowlistResource } from './raffle-allowlist.js';
import { RaffleEntries } from './raffle-entries.js';
import { RaffleWins } from './raffle-wins.js';

/** One raffle as its team sees it: settings, requirement params and every lifecycle time. */
export type Raffle = ManagementSchemas['DashboardRaffle'];
/** A raffle as the workspace list shows it; `get` it for the rest. */
export type RaffleListItem = ListItem<'listRaffles'>;
export type ListRafflesParams = ListParams<'listRaffles'>;
export type CreateRaffleParams = RequestBody<'createRaffle'>;
export type UpdateRaffleParams = RequestBody<'updateRaffle'>;
export type DrawRaffleParams = RequestBody<'drawRaffle'>;

type Action = 'publish' | 'open' | 'close' | 'draw' | 'finalize' | 'cancel';

const rafflesPath = (workspaceId: string) => encodePath`/api/dashboard/workspaces/${workspaceId}/raffles`;
const rafflePath = (workspaceId: string, raffleId: string) => encodePath`/api/dashboard/workspaces/${workspaceId}/raffles/${raffleId}`;

/**
 * A workspace's raffles. Any member reads; owners and admins create, edit and move them through
 * their lifecycle. An action the raffle's status does not allow is a 409 whose `code` names it
 * (`RAFFLE_CANNOT_OPEN`, …). `create` carries an Idempotency-Key (random unless the caller passes
 * theirs) and is retried like a GET. Actions take none and are never retried automatically: a
 * lost answer may hide a transition that did happen (`get` tells).
 */
export class WorkspaceRaffles {
  readonly entries: RaffleEntries;
  readonly wins: RaffleWins;
  readonly allowlist: RaffleAllowlistResource;

  constructor(private readonly http: HttpClient) {
    this.entries = new RaffleEntries(http);
    this.wins = new RaffleWins(http);
    this.allowlist = new RaffleAllowlistResource(http);
  }

  /** Creates a draft; nothing is announced until it is published. 409 `SLUG_TAKEN` when another raffle of the workspace has the slug. */
  create(workspaceId: string, params: CreateRaffleParams, options?: RequestOptions): Promise<WithResponse<Raffle>> {
    return this.http.request({ method: 'POST', path: rafflesPath(workspaceId), body: params, idempotencyKey: newIdempotencyKey(), options });
  }

  /** Every raffle of the workspace in every status, newest first. */
  list(workspaceId: string, params: ListRafflesParams = {}, options?: RequestOptions): PagedList<RaffleListItem> {
    return this.http.list({ method: 'GET', path: rafflesPath(workspaceId), query: { ...params }, options });
  }

  get(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<WithResponse<Raffle>> {
    return this.http.request({ method: 'GET', path: rafflePath(workspaceId, raffleId), options });
  }

  /** Changes some fields; which ones depends on the status (409 `RAFFLE_CANNOT_UPDATE` otherwise). */
  update(workspaceId: string, raffleId: string, params: UpdateRaffleParams, options?: RequestOptions): Promise<WithResponse<Raffle>> {
    return this.http.request({ method: 'PATCH', path: rafflePath(workspaceId, raffleId), body: params, options });
  }

  /** Publishes a draft: scheduled until `startsAt`, or open at once; its draw commitment becomes public. 409 `SLUG_TAKEN` when the slug is not available (a raffle of any workspace published it); 429 past the `raffle-publish` budget. */
  publish(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<WithResponse<Raffle>> {
    return this.act(workspaceId, raffleId, 'publish', undefined, options);
  }

  /** Opens a scheduled raffle before its `startsAt`. */
  open(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<WithResponse<Raffle>> {
    return this.act(workspaceId, raffleId, 'open', undefined, options);
  }

  /** Closes an open raffle to entries. */
  close(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<WithResponse<Raffle>> {
    return this.act(workspaceId, raffleId, 'close', undefined, options);
  }

  /** Selects the winners of a closed raffle; an application raffle names them in `entryIds` (in position order). */
  draw(workspaceId: string, raffleId: string, params: DrawRaffleParams = {}, options?: RequestOptions): Promise<WithResponse<Raffle>> {
    return this.act(workspaceId, raffleId, 'draw', params, options);
  }

  /** Finalizes a drawn raffle: its selected wins become final. */
  finalize(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<WithResponse<Raffle>> {
    return this.act(workspaceId, raffleId, 'finalize', undefined, options);
  }

  /** Cancels a raffle that has not closed; wins already handed out are disqualified. */
  cancel(workspaceId: string, raffleId: string, options?: RequestOptions): Promise<WithResponse<Raffle>> {
    return this.act(workspaceId, raffleId, 'cancel', undefined, options);
  }

  /** An action without options sends no body (the API takes none as `{}`). */
  private act(workspaceId: string, raffleId: string, action: Action, body?: object, options?: RequestOptions): Promise<WithResponse<Raffle>> {
    return this.http.request({ method: 'POST', path: `${rafflePath(workspaceId, raffleId)}/${action}`, body, options });
  }
}
