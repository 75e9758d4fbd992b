import type { RequestSpec } from './http-client.js';

/** Statuses that mean "the server could not handle it now" rather than "the request is wrong". */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** The longest `Retry-After` the SDK sleeps through; a longer one is handed to the caller as the error. */
export const MAX_RETRY_AFTER_SECONDS = 60;

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

/**
 * A request may be sent again after a network error or a 5xx only when a repeat cannot act twice:
 * a GET, or a write carrying an Idempotency-Key (the server replays the first answer). Answers
 * that say nothing ran are the exception (isRefusedBeforeActing): any request may repeat them.
 */
export const isRetryableRequest = (spec: RequestSpec): boolean => spec.method === 'GET' || spec.idempotencyKey !== undefined;

/**
 * Answers worth sending again: overload and gateway errors, and 409 IDEMPOTENCY_KEY_IN_PROGRESS,
 * which a retry meets when the attempt whose answer was lost is still running on the server, or
 * has failed and its key is about to be released. The server says when to come back (Retry-After),
 * and `delayAfterStatus` waits that long, so a key in progress is not spent on quick backoffs.
 */
export const isRetryableAnswer = (status: number, code: string | null): boolean =>
  RETRYABLE_STATUSES.has(status) || (status === 409 && (code === 'IDEMPOTENCY_KEY_IN_PROGRESS' || code === 'DRAW_BEACON_PENDING' || code === 'DRAW_CHAIN_PENDING'));

/**
 * Answers given before anything was done, which any request, a POST without a key included, may
 * repeat: a 429 (the rate limiter refuses before the handler runs), and a draw's 409
 * DRAW_BEACON_PENDING (the raffle's beacon round is not published yet; Retry-After says when it is
 * due, so the draw simply happens a few seconds later), and DRAW_CHAIN_PENDING (a chain the raffle's
 * requirements read has not produced its first block after the close yet).
 */
export const isRefusedBeforeActing = (status: number, code: string | null): boolean =>
  status === 429 || (status === 409 && (code === 'DRAW_BEACON_PENDING' || code === 'DRAW_CHAIN_PENDING'));

/** Exponential backoff with full jitter: a random wait in [0, min(cap, base·2^retry)). `retry` counts from 0. */
export function backoffDelayMs(retry: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry));
}

/**
 * How long to wait before retry number `retry` after an answer with this status, or `null` to give
 * up. A server-sent Retry-After wins over backoff (the server knows when its window reopens), up to
 * MAX_RETRY_AFTER_SECONDS.
 */
export function delayAfterStatus(retry: number, retryAfterSeconds: number | null): number | null {
  if (retryAfterSeconds === null) return backoffDelayMs(retry);
  if (retryAfterSeconds > MAX_RETRY_AFTER_SECONDS) return null;
  return retryAfterSeconds * 1000;
}
