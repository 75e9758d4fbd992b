import { newIdempotencyKey, type RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import type { DrawProof, Entry, PublicRaffle, PublicRaffleListItem, PublicRaffleListParams } from '../api-types.js';

/**
 * The options `enter` has always taken, now those of every call. `idempotencyKey` is sent as
 * `Idempotency-Key`; when absent the SDK makes a random one per call, so a retried attempt (the
 * first one's answer lost to a network error) replays instead of entering twice. Pass your own to
 * make a retry across processes or restarts safe as well.
 */
export type EnterOptions = RequestOptions;

const rafflePath = (slug: string) => `/api/v1/raffles/${encodeURIComponent(slug)}`;

/** Public raffles and the key owner's entry in each (personal key). */
export class RafflesResource {
  constructor(private readonly http: HttpClient) {}

  /** Every public raffle: `for await` walks all pages, `.page()` fetches one. */
  list(params: PublicRaffleListParams = {}, options?: RequestOptions): PagedList<PublicRaffleListItem> {
    return this.http.list({ method: 'GET', path: '/api/v1/raffles', query: { ...params }, options });
  }

  get(slug: string, options?: RequestOptions): Promise<WithResponse<PublicRaffle>> {
    return this.http.request({ method: 'GET', path: rafflePath(slug), options });
  }

  /** Enters the key's user in the raffle (`POST …/entries`), idempotently. */
  enter(slug: string, options?: EnterOptions): Promise<WithResponse<Entry>> {
    return this.http.request({ method: 'POST', path: `${rafflePath(slug)}/entries`, idempotencyKey: newIdempotencyKey(), options });
  }

  /** The key's user's entry in the raffle; RaffleApiError 404 when there is none. */
  myEntry(slug: string, options?: RequestOptions): Promise<WithResponse<Entry>> {
    return this.http.request({ method: 'GET', path: `${rafflePath(slug)}/entries/me`, options });
  }

  /** Withdraws the key's user's entry. Not retried: a repeat after a lost answer would report the entry as gone. */
  withdraw(slug: string, options?: RequestOptions): Promise<WithResponse<Entry>> {
    return this.http.request({ method: 'DELETE', path: `${rafflePath(slug)}/entries/me`, options });
  }

  /** The draw proof of a drawn raffle; check it with `verifyDraw(proof)`. */
  drawProof(slug: string, options?: RequestOptions): Promise<WithResponse<DrawProof>> {
    return this.http.request({ method: 'GET', path: `${rafflePath(slug)}/draw`, options });
  }
}
