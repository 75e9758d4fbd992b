/**
 * What a provider read gives back. Requirement checks must tell "the provider said no" apart from
 * "the provider could not be asked now" (the entry stays pending and is settled later) and from
 * "the link no longer works" (the requirement fails with a clear detail), so no read throws for
 * any of these.
 */
export type ProviderOutcome<T> =
  | { status: 'ok'; value: T }
  /** The provider's limit for this token and route is spent; nothing was (or will be) sent before `resetAt`. */
  | { status: 'rate_limited'; retryAfterMs: number; resetAt: Date }
  /** Down, slow past the bound, or answering something unexpected. */
  | { status: 'unavailable'; reason: string }
  /** The provider refused the token: revoked, expired, or without the scope the read needs. */
  | { status: 'token_rejected'; httpStatus: number; reason: string };

export type ProviderFailure = Exclude<ProviderOutcome<never>, { status: 'ok' }>;

export const ok = <T>(value: T): ProviderOutcome<T> => ({ status: 'ok', value });

export const rateLimited = (retryAfterMs: number, now = Date.now()): ProviderFailure => {
  const wait = Math.max(0, Math.ceil(retryAfterMs));
  return { status: 'rate_limited', retryAfterMs: wait, resetAt: new Date(now + wait) };
};

export const unavailable = (reason: string): ProviderFailure => ({ status: 'unavailable', reason });

export const tokenRejected = (httpStatus: number, reason: string): ProviderFailure => ({ status: 'token_rejected', httpStatus, reason });
