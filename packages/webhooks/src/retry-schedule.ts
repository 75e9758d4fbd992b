const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * product.md: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — 8 attempts.
 * Entry i is the wait before attempt i + 1, so entry 0 is the first, immediate, attempt.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = Object.freeze([
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
]);

/** Spreads retries of endpoints that failed together (one outage) so they do not return as one burst. */
const JITTER_RATIO = 0.1;

/**
 * Delay before attempt number `attempt + 1` after `attempt` failed attempts (1-based), with ±10% jitter
 * from `random()`; null when the schedule is exhausted.
 */
export function delayBeforeNextAttempt(attemptsMade: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) throw new RangeError('attemptsMade must be a whole number ≥ 0');
  const base = RETRY_SCHEDULE_MS[attemptsMade];
  if (base === undefined) return null;
  const unit = Math.min(Math.max(random(), 0), 1);
  return Math.round(base * (1 + (unit * 2 - 1) * JITTER_RATIO));
}

/** 5 days of continuous failure disable an endpoint. */
export const AUTO_DISABLE_AFTER_MS = 5 * 24 * HOUR;
export const DELIVERY_TIMEOUT_MS = 15_000;
export const RESPONSE_BODY_LIMIT_BYTES = 1024;
