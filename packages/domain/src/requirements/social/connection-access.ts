import { listConnectionRateLimits, recordConnectionRateLimit, type DbOrTx } from '@raffle/db';
import type { SocialProvider } from './social-resources.js';

/** What the entrant's link gives a requirement check: a usable access token, or why there is none. */
export type AccessTokenResult =
  | { status: 'ok'; token: string; accountId: string }
  | { status: 'not_linked' }
  /** The provider refused the link (a refresh refused, the app removed): the user must link again. */
  | { status: 'revoked'; reason: string }
  /** The token could not be made usable now (a refresh the provider did not answer): ask later. */
  | { status: 'unavailable'; reason: string };

/** The connections' token source (domain connections: createConnectionTokens), as requirements use it. */
export type ConnectionTokenSource = { accessTokenFor(userId: string, provider: SocialProvider): Promise<AccessTokenResult> };

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
