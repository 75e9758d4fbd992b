/**
 * Options of one call, the last argument of every client method (as Stripe's and OpenAI's clients
 * take them). A list passes them to every page it fetches.
 */
export type RequestOptions = {
  /** Aborts the call: the request in flight, or the wait before a retry. The call rejects with `signal.reason` and is not retried. */
  signal?: AbortSignal;
  /** Per attempt for this call, body included; overrides the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Extra request headers for this call; they win over the client's own, except `Authorization`. */
  headers?: Record<string, string>;
  /**
   * Sent as `Idempotency-Key`, so a write may be retried and the server replays its first answer.
   * The creates that take one get a random key of their own when this is absent; pass yours to
   * make a retry across processes or restarts safe as well.
   */
  idempotencyKey?: string;
  /** Retries after the first attempt for this call; overrides the client's `maxRetries`. */
  maxRetries?: number;
};

/** A fresh key for a create that should be safe to retry (a UUID: unguessable, which the server relies on; decision 0020). */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID();
