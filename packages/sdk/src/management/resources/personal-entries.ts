import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ResponseBody } from '../operation-types.js';

/** The signed-in user's own entry, as its owner sees it (requirements reduced to type, label and passed). */
export type PersonalEntry = ResponseBody<'enterRaffleAsMe'>;

/** The signed-in user entering a raffle, or withdrawing, through the dashboard (`source: web`); the raffle is named by slug. */
export class PersonalEntries {
  constructor(private readonly http: HttpClient) {}

  /**
   * Enters the raffle. 409 `ALREADY_ENTERED`, `RAFFLE_NOT_OPEN`, `RAFFLE_FULL` or
   * `REQUIREMENTS_NOT_MET`; 404 `RAFFLE_NOT_FOUND`. Never retried automatically.
   */
  create(raffleSlug: string, options?: RequestOptions): Promise<WithResponse<PersonalEntry>> {
    return this.http.request({ method: 'POST', path: encodePath`/api/dashboard/raffles/${raffleSlug}/entries`, options });
  }

  /** Withdraws the caller's entry while the raffle is open; 404 `ENTRY_NOT_FOUND`, 409 `ENTRY_NOT_WITHDRAWABLE`. */
  withdraw(raffleSlug: string, options?: RequestOptions): Promise<WithResponse<ResponseBody<'withdrawMyEntry'>>> {
    return this.http.request({ method: 'DELETE', path: encodePath`/api/dashboard/raffles/${raffleSlug}/entries/me`, options });
  }
}
