import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
    /** The EIP-155 chain id the wallet signed for (Sign-In with Ethereum); null for rows from before linking existed. */
    chainId: integer('chain_id'),
    /** When the signature was last checked; null when not verified (or for rows the seed marked verified before 0011). */
    verifiedAt: timestampColumn('verified_at'),
    /** How it was proven: 'siwe' (an EOA's signature), 'erc1271' (a contract wallet accepted it), 'seed' (demo or import data). */
    verifiedBy: text('verified_by'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.chain, t.address] }), index('user_wallets_address_idx').on(t.chain, t.address)],
);

/**
 * Sign-In with Ethereum nonces: issued to one user, single-use (used_at set by the one UPDATE that
 * consumes it), and refused after expires_at.
 */
export const walletLinkNonces = pgTable(
  'wallet_link_nonces',
  {
    nonce: text('nonce').primaryKey(),
    userId: idColumn('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuedAt: timestampColumn('issued_at').notNull(),
    expiresAt: timestampColumn('expires_at').notNull(),
    usedAt: timestampColumn('used_at'),
  },
  (t) => [index('wallet_link_nonces_user_idx').on(t.userId, t.expiresAt)],
);
