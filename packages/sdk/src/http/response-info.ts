/** What the server said about a successful call besides its body. */
export type ResponseInfo = {
  /** The `X-Request-Id` of the answer: quote it to support. */
  requestId: string | null;
  status: number;
  headers: Headers;
  /** The tightest rate-limit policy that counted the call (the `RateLimit` headers), or null when none was sent. */
  rateLimit: RateLimitState | null;
  /**
   * At most how many ms old the answer's data may be (`Raffle-Staleness-Ms`: 0 when read from the
   * primary, more when from a read replica), or null when the server did not say (writes, management).
   */
  stalenessMs: number | null;
};

export type RateLimitState = {
  /** The policy's name: `default` (a key's calls) or `public` (per IP) on the data plane; `user`, or a route's own, on management. */
  policy: string;
  /** Requests the window allows, or null when `RateLimit-Policy` did not name it. */
  limit: number | null;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
};

/**
 * A successful answer with its `lastResponse`, as Stripe's client has it: a non-enumerable property,
 * so it stays out of `JSON.stringify`, spreads and equality checks. Bodies that are not objects
 * (a 204's `undefined`) carry none.
 */
export type WithResponse<T> = T extends object ? T & { readonly lastResponse: ResponseInfo } : T;

/** `"name";k=v;k=v, "name";…` → one record of numbers per name (the IETF draft's structured lists). */
function parsePolicies(header: string | null): Map<string, Record<string, number>> {
  const policies = new Map<string, Record<string, number>>();
  for (const item of (header ?? '').split(',')) {
    const [name, ...params] = item.trim().split(';');
    if (!name) continue;
    const values: Record<string, number> = {};
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key && value !== undefined && /^\d+$/.test(value.trim())) values[key.trim()] = Number(value.trim());
    }
    policies.set(name.replace(/^"|"$/g, ''), values);
  }
  return policies;
}

/** The policy with the fewest requests left, from `RateLimit` and `RateLimit-Policy`. */
export function rateLimitOf(headers: Headers): RateLimitState | null {
  const quotas = parsePolicies(headers.get('ratelimit-policy'));
  let tightest: RateLimitState | null = null;
  for (const [policy, state] of parsePolicies(headers.get('ratelimit'))) {
    if (state.r === undefined || state.t === undefined) continue;
    if (tightest === null || state.r < tightest.remaining) tightest = { policy, limit: quotas.get(policy)?.q ?? null, remaining: state.r, reset: state.t };
  }
  return tightest;
}

export const responseInfoOf = (status: number, headers: Headers): ResponseInfo => ({
  requestId: headers.get('x-request-id'),
  status,
  headers,
  rateLimit: rateLimitOf(headers),
  stalenessMs: stalenessOf(headers.get('raffle-staleness-ms')),
});

function stalenessOf(value: string | null): number | null {
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

/** Hangs the answer's info on its body, out of sight of enumeration. */
export function attachResponse<T>(body: T, info: ResponseInfo): WithResponse<T> {
  if (typeof body === 'object' && body !== null) Object.defineProperty(body, 'lastResponse', { value: info, enumerable: false, configurable: true });
  return body as WithResponse<T>;
}
