import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idColumn, timestampColumn } from './columns.js';
import { users } from './users.js';

/**
 * A Discord or X account a user linked by OAuth 2.0 (issue 36): one per user and provider. The
 * tokens are sealed by the domain (AES-256-GCM under CONNECTION_TOKEN_KEY, bound to the user, the
 * provider and the column), so a leaked table or backup opens nothing.
 */
export const userConnections = pgTable(
  'user_connections',
  {
    userId: idColumn('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The account's id at the provider. Several users may link one account; the index below finds them (duplicate flags). */
    accountId: text('account_id').notNull(),
    accountName: text('account_name').notNull(),
    accessToken: text('access_token').notNull(),
    /** Null when the provider gave none: the link then lasts as long as its access token. */
    refreshToken: text('refresh_token'),
    accessTokenExpiresAt: timestampColumn('access_token_expires_at').notNull(),
    scopes: text('scopes').array().notNull(),
    /** 'active', or 'revoked' once the provider refused a refresh (the reason beside it); linking again makes it active. */
    status: text('status').notNull().default('active'),
    revokedReason: text('revoked_reason'),
    /** While set and ahead, one caller is refreshing the tokens and the others wait for its result. */
    refreshClaimedUntil: timestampColumn('refresh_claimed_until'),
    linkedAt: timestampColumn('linked_at').notNull(),
    updatedAt: timestampColumn('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.provider] }),
    index('user_connections_account_idx').on(t.provider, t.accountId),
    check('user_connections_provider_check', sql`${t.provider} in ('discord', 'x')`),
    check('user_connections_status_check', sql`${t.status} in ('active', 'revoked')`),
  ],
);

/**
 * One authorization flow in progress: issued to one user for one provider, single-use (used_at
 * set by the one UPDATE that consumes it) and refused after expires_at. Stored under the state's
 * SHA-256, never the state itself; the PKCE verifier sealed like the tokens.
 */
export const oauthLinkStates = pgTable(
  'oauth_link_states',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: idColumn('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    createdAt: timestampColumn('created_at').notNull(),
    expiresAt: timestampColumn('expires_at').notNull(),
    usedAt: timestampColumn('used_at'),
  },
  (t) => [index('oauth_link_states_user_idx').on(t.userId, t.expiresAt), check('oauth_link_states_provider_check', sql`${t.provider} in ('discord', 'x')`)],
);
