import { boolean, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, timestampColumn, updatedAt } from './columns.js';

export const users = pgTable('users', {
  id: idColumn('id').primaryKey(),
  handle: text('handle').notNull().unique(),
  displayName: text('display_name'),
  avatarUrl: text('avatar_url'),
  email: text('email'),
  emailVerifiedAt: timestampColumn('email_verified_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  /** The `/api/v1/me` representation, rendered whenever the user or a wallet changes. */
  profileJson: text('profile_json').notNull(),
});

export const userWallets = pgTable(
  'user_wallets',
  {
    userId: idColumn('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chain: text('chain').notNull(),
    address: text('address').notNull(),
    verified: boolean('verified').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.chain, t.address] }), index('user_wallets_address_idx').on(t.chain, t.address)],
);
