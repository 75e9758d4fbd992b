import type { HttpClient, PagedList } from '../../http/http-client.js';
import type { DrawProof, Entry, PublicRaffle, PublicRaffleListItem, PublicRaffleListParams } from '../api-types.js';

export type EnterOptions = {
  /**
   * Sent as `Idempotency-Key`. When absent the SDK makes a random one per call, so a retried
   * attempt (the first one's answer lost to a network error) replays instead of entering twice.
   * Pass your own to make a retry across processes or restarts safe as well.
   */
  idempotencyKey?: string;
};

const rafflePath = (slug: string) => `/api/v1/raffles/${encodeURIComponent(slug)}`;

/** Public raffles and the key owner's entry in each (personal key). */
export class RafflesResource {
  constructor(private readonly http: HttpClient) {}

  /** Every public raffle: `for await` walks all pages, `.page()` fetches one. */
  list(params: PublicRaffleListParams = {}): PagedList<PublicRaffleListItem> {
    return this.http.list({ method: 'GET', path: '/api/v1/raffles', query: { ...params } });
  }

  get(slug: string): Promise<PublicRaffle> {
    return this.http.request({ method: 'GET', path: rafflePath(slug) });
  }

  /** Enters the key's user in the raffle (`POST …/entries`), idempotently. */
  enter(slug: string, options: EnterOptions = {}): Promise<Entry> {
    const idempotencyKey = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    return this.http.request({ method: 'POST', path: `${rafflePath(slug)}/entries`, idempotencyKey });
  }

  /** The key's user's entry in the raffle; RaffleApiError 404 when there is none. */
  myEntry(slug: string): Promise<Entry> {
    return this.http.request({ method: 'GET', path: `${rafflePath(slug)}/entries/me` });
  }

  /** Withdraws the key's user's entry. Not retried: a repeat after a lost answer would report the entry as gone. */
  withdraw(slug: string): Promise<Entry> {
    return this.http.request({ method: 'DELETE', path: `${rafflePath(slug)}/entries/me` });
  }

  /** The draw proof of a drawn raffle; check it with `verifyDraw(proof)`. */
  drawProof(slug: string): Promise<DrawProof> {
    return this.http.request({ method: 'GET', path: `${rafflePath(slug)}/draw` });
  }
}
