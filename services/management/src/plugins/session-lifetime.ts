/** The bounds a verified session token's times must keep, in seconds. */
export type SessionLifetimeLimits = { maxLifetimeSeconds: number; clockToleranceSeconds: number };

/**
 * Why a verified token's times are refused, or null. The verifier checks `exp` and `nbf` against
 * now only, so a token issued in year 9999, or expiring then, would pass it: a leaked token of
 * that kind could never be expired away. So `iat`, when sent, must be a number and not ahead of
 * now by more than the clock tolerance, and the lifetime (`exp - iat`, or `exp - now` without
 * `iat`) must not exceed the configured maximum.
 */
export function sessionLifetimeProblem(claims: { iat?: unknown; exp?: unknown }, nowMs: number, limits: SessionLifetimeLimits): string | null {
  const now = nowMs / 1000;
  const { iat, exp } = claims;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return 'exp is not a number';
  if (iat !== undefined && (typeof iat !== 'number' || !Number.isFinite(iat))) return 'iat is not a number';
  if (iat !== undefined && iat > now + limits.clockToleranceSeconds) return 'iat is in the future';
  const lifetime = exp - (iat ?? now);
  if (lifetime > limits.maxLifetimeSeconds + limits.clockToleranceSeconds) return `lives longer than ${limits.maxLifetimeSeconds} s`;
  return null;
}
