import { createHash } from 'node:crypto';

export type RouteLimit = { limit: number; windowSeconds: number };

/** What the rate-limit headers of one answer say; `retryAfterMs` is set when the request is refused with a 429. */
export type BucketAnswer = { limit: number; remaining: number; resetAtMs: number; retryAfterMs: number | null };

/** A request that arrived while its sender had been told to wait: the client broke the provider's limit. */
export type OverLimitRequest = { route: string; at: Date };

type Bucket = { windowStartMs: number; used: number; toldToWaitUntilMs: number };

/**
 * Fixed-window buckets per route and token, as both providers count user-token limits, with a
 * record of every request sent after the stand-in said "nothing left until the reset" (a 429, or
 * `remaining: 0`) and before that reset: tests assert it stays empty.
 */
export class RateLimitBuckets<Route extends string> {
  readonly #buckets = new Map<string, Bucket>();
  readonly #overLimit: OverLimitRequest[] = [];

  constructor(
    private readonly limits: Record<Route, RouteLimit>,
    private readonly now: () => number,
  ) {}

  take(route: Route, authorization: string | undefined, forcedUntilMs: number | undefined): BucketAnswer {
    const now = this.now();
    const { limit, windowSeconds } = this.limits[route];
    const key = `${route} ${createHash('sha256').update(authorization ?? '').digest('base64url')}`;
    let bucket = this.#buckets.get(key);
    if (!bucket || now >= bucket.windowStartMs + windowSeconds * 1000) {
      bucket = { windowStartMs: now, used: 0, toldToWaitUntilMs: bucket?.toldToWaitUntilMs ?? 0 };
      this.#buckets.set(key, bucket);
    }
    if (now < bucket.toldToWaitUntilMs) this.#overLimit.push({ route, at: new Date(now) });
    const windowEndMs = bucket.windowStartMs + windowSeconds * 1000;
    if (forcedUntilMs !== undefined) {
      bucket.toldToWaitUntilMs = Math.max(bucket.toldToWaitUntilMs, forcedUntilMs);
      return { limit, remaining: 0, resetAtMs: forcedUntilMs, retryAfterMs: forcedUntilMs - now };
    }
    if (bucket.used >= limit) {
      bucket.toldToWaitUntilMs = windowEndMs;
      return { limit, remaining: 0, resetAtMs: windowEndMs, retryAfterMs: windowEndMs - now };
    }
    bucket.used += 1;
    if (bucket.used === limit) bucket.toldToWaitUntilMs = windowEndMs;
    return { limit, remaining: limit - bucket.used, resetAtMs: windowEndMs, retryAfterMs: null };
  }

  overLimitRequests(): OverLimitRequest[] {
    return [...this.#overLimit];
  }
}
