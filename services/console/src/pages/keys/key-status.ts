import type { ApiKey } from '@raffle/sdk';

export type KeyStatus = 'active' | 'revoked' | 'expired';

/**
 * A key's state as the data plane sees it right now. A rolled key with a grace period has a
 * future `expiresAt` and stays active until then; `revokedAt` wins over `expiresAt`.
 */
export function keyStatus(key: Pick<ApiKey, 'revokedAt' | 'expiresAt'>, now: Date = new Date()): KeyStatus {
  if (key.revokedAt && Date.parse(key.revokedAt) <= now.getTime()) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) return 'expired';
  return 'active';
}

/** Only an active key can be rolled or revoked (management refuses to roll the others). */
export function isActive(key: Pick<ApiKey, 'revokedAt' | 'expiresAt'>, now?: Date): boolean {
  return keyStatus(key, now) === 'active';
}
