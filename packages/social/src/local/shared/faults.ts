/**
 * Test hooks that make a stand-in misbehave the way a provider does, per route (or every route
 * with `'*'`): a 429 with the provider's reset for a while, slowness, or an outage (the connection
 * is dropped without an answer).
 */
export type Fault = { kind: 'slow'; delayMs: number } | { kind: 'down' };

export class LocalFaults<Route extends string> {
  readonly #faults = new Map<Route | '*', Fault>();
  readonly #rateLimitedUntil = new Map<Route | '*', number>();

  constructor(private readonly now: () => number) {}

  /** Every request to `route` is answered 429 until `retryAfterSeconds` from now, as a provider's spent bucket is. */
  rateLimit(route: Route | '*', retryAfterSeconds: number): void {
    this.#rateLimitedUntil.set(route, this.now() + retryAfterSeconds * 1000);
  }

  slow(route: Route | '*', delayMs: number): void {
    this.#faults.set(route, { kind: 'slow', delayMs });
  }

  down(route: Route | '*'): void {
    this.#faults.set(route, { kind: 'down' });
  }

  /** Back to normal, for one route or all. */
  clear(route?: Route | '*'): void {
    if (route === undefined) {
      this.#faults.clear();
      this.#rateLimitedUntil.clear();
      return;
    }
    this.#faults.delete(route);
    this.#rateLimitedUntil.delete(route);
  }

  faultFor(route: Route): Fault | undefined {
    return this.#faults.get(route) ?? this.#faults.get('*');
  }

  /** When a forced 429 window on `route` ends (epoch ms), if one is open. */
  rateLimitedUntil(route: Route): number | undefined {
    const until = Math.max(this.#rateLimitedUntil.get(route) ?? 0, this.#rateLimitedUntil.get('*') ?? 0);
    return until > this.now() ? until : undefined;
  }
}
