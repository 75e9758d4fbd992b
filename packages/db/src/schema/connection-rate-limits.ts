import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idColumn, timestampColumn } from './columns.js';
import { users } from './users.js';

/**
 * Until when a provider (Discord, X) told the platform to stop asking with a user's token: the
 * reset of a 429, or of a bucket answered with nothing remaining. Providers count these limits per
 * token, and every replica reads with the same token, so the wait is kept here rather than in one
 * process's memory: no replica asks before the reset (decision 0045). One row per user and
 * provider, whatever the route: the longest wait wins, a conservative reading of per-route buckets.
 */
export const connectionRateLimits = pgTable(
  'connection_rate_limits',
  {
    userId: idColumn('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    resetAt: timestampColumn('reset_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);
