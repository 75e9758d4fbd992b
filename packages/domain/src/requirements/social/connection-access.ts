import { listConnectionRateLimits, recordConnectionRateLimit, type DbOrTx } from '@raffle/db';
import type { ConnectionTokens } from '../../connections/connection-tokens.js';
import type { SocialProvider } from './social-resources.js';

/** What requirement checks use of the connections' tokens (createConnectionTokens). */
export type ConnectionTokenSource = Pick<ConnectionTokens, 'accessTokenFor' | 'reportRejected'>;

/** Until when providers told the platform to wait, per user and provider (`userId|provider`), kept across replicas. */
export type ProviderWaitStore = {
  waitsOf(userIds: readonly string[], providers: readonly SocialProvider[], now: Date): Promise<Map<string, Date>>;
  record(userId: string, provider: SocialProvider, resetAt: Date): Promise<void>;
};

/** The waits kept in the database (connection_rate_limits), so every replica honours a reset another was told. */
export const providerWaitsIn = (db: DbOrTx): ProviderWaitStore => ({
  waitsOf: (userIds, providers, now) => listConnectionRateLimits(db, { userIds, providers, now }),
  record: (userId, provider, resetAt) => recordConnectionRateLimit(db, { userId, provider, resetAt }),
});

export const waitKey = (userId: string, provider: SocialProvider) => `${userId}|${provider}`;
