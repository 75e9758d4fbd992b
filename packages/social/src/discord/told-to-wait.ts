import type { ResponseLike } from '@discordjs/rest';

/** Any route of the token: Discord's global limit (`X-RateLimit-Global`). */
const EVERY_ROUTE = '*';

/**
 * Until when Discord told one token to leave a route alone, read from every answer's headers.
 *
 * `@discordjs/rest` queues by bucket, but learns a route's bucket from the first answer and then
 * moves the route to a fresh queue for that bucket, which knows nothing of what the first answer
 * said: a second request right after a first 429 (or a first `remaining: 0`) would be sent. This
 * memory closes that gap: a read is not sent before the reset Discord gave for its route.
 */
export class ToldToWait {
  readonly #until = new Map<string, number>();

  /** For the REST instance's `response` event (every answer, before the library handles it). */
  remember(route: string, response: Pick<ResponseLike, 'status' | 'headers'>, now = Date.now()): void {
    const seconds = (name: string) => Number(response.headers.get(name) ?? 0) || 0;
    const resetAfterMs = seconds('x-ratelimit-reset-after') * 1000;
    const limited = response.status === 429;
    if (!limited && response.headers.get('x-ratelimit-remaining') !== '0') return;
    const waitMs = limited ? Math.max(resetAfterMs, seconds('retry-after') * 1000) : resetAfterMs;
    const key = limited && response.headers.has('x-ratelimit-global') ? EVERY_ROUTE : route;
    this.#until.set(key, Math.max(this.#until.get(key) ?? 0, now + waitMs));
  }

  /** Milliseconds still to wait before `route` may be asked, or 0. */
  remainingWait(route: string, now = Date.now()): number {
    const until = Math.max(this.#until.get(route) ?? 0, this.#until.get(EVERY_ROUTE) ?? 0);
    return Math.max(0, until - now);
  }
}
