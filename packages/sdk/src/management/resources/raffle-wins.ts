import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ListItem, ListParams, RequestBody, ResponseBody } from '../operation-types.js';

export type RaffleWin = ListItem<'listRaffleWins'>;
export type ListRaffleWinsParams = ListParams<'listRaffleWins'>;
export type DisqualifyWinParams = RequestBody<'disqualifyWin'>;
export type RerollWinParams = RequestBody<'rerollWin'>;
export type RerolledWin = ResponseBody<'rerollWin'>;
export type UpdateWinDeliveryParams = RequestBody<'setWinDelivery'>;

const winPath = (workspaceId: string, raffleId: string, winId: string) =>
  encodePath`/api/dashboard/workspaces/${workspaceId}/raffles/${raffleId}/wins/${winId}`;

/** Every win of a raffle (not only the finalized winners), and what the team does with one. */
export class RaffleWins {
  constructor(private readonly http: HttpClient) {}

  /** Wins in every status by position then id, optionally in one `status`; up to 250 a page (100 by default). Any member. */
  list(workspaceId: string, raffleId: string, params: ListRaffleWinsParams = {}, options?: RequestOptions): PagedList<RaffleWin> {
    return this.http.list({ method: 'GET', path: encodePath`/api/dashboard/workspaces/${workspaceId}/raffles/${raffleId}/wins`, query: { ...params }, options });
  }

  /** Disqualifies a selected or finalized win; its position can then be rerolled. */
  disqualify(workspaceId: string, raffleId: string, winId: string, params: DisqualifyWinParams, options?: RequestOptions): Promise<WithResponse<RaffleWin>> {
    return this.http.request({ method: 'POST', path: `${winPath(workspaceId, raffleId, winId)}/disqualify`, body: params, options });
  }

  /**
   * Gives a disqualified win's position to the next entry (an application raffle names it in
   * `entryId`); answers the old win, now `replaced`, and its replacement. Never retried
   * automatically: a second reroll would hand the position on again.
   */
  reroll(workspaceId: string, raffleId: string, winId: string, params: RerollWinParams = {}, options?: RequestOptions): Promise<WithResponse<RerolledWin>> {
    return this.http.request({ method: 'POST', path: `${winPath(workspaceId, raffleId, winId)}/reroll`, body: params, options });
  }

  /** Records a live win's delivery status and an optional note; `delivered` is final. */
  updateDelivery(workspaceId: string, raffleId: string, winId: string, params: UpdateWinDeliveryParams, options?: RequestOptions): Promise<WithResponse<RaffleWin>> {
    return this.http.request({ method: 'PATCH', path: `${winPath(workspaceId, raffleId, winId)}/delivery`, body: params, options });
  }
}
