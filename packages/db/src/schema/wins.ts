import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, timestampColumn, updatedAt } from './columns.js';
import { entries } from './entries.js';
import { raffles } from './raffles.js';
import { users } from './users.js';

export type IdentitySnapshot = { handle: string; displayName?: string; wallets: { chain: string; address: string }[] };

export const wins = pgTable(
  'wins',
  {
    id: idColumn('id').primaryKey(),
    raffleId: idColumn('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    entryId: idColumn('entry_id')
      .notNull()
      .references(() => entries.id, { onDelete: 'cascade' }),
    userId: idColumn('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    source: text('source').notNull(),
    status: text('status').notNull(),
    walletSnapshot: text('wallet_snapshot'),
    /**
     * The wallet the winner named for the raffle's allowlist, before its wallet deadline (issue 35):
     * one of their verified wallets on the raffle's chain. The allowlist uses it over the snapshot.
     */
    allowlistWallet: text('allowlist_wallet'),
    identitySnapshot: jsonb('identity_snapshot').$type<IdentitySnapshot>().notNull(),
    deliveryStatus: text('delivery_status').notNull(),
    deliveryNote: text('delivery_note'),
    selectedAt: timestampColumn('selected_at').notNull(),
    finalizedAt: timestampColumn('finalized_at'),
    disqualifiedAt: timestampColumn('disqualified_at'),
    replacedAt: timestampColumn('replaced_at'),
    deliveredAt: timestampColumn('delivered_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The personal `Win` JSON, rendered at write time. */
    winJson: text('win_json').notNull(),
    /** The workspace `Winner` JSON, rendered at write time. */
    winnerJson: text('winner_json').notNull(),
  },
  (t) => [
    // At most one live win holds a position: FCFS and rerolls can never over-allocate.
    uniqueIndex('wins_live_position_idx')
      .on(t.raffleId, t.position)
      .where(sql`${t.status} in ('selected', 'finalized')`),
    uniqueIndex('wins_live_entry_idx')
      .on(t.entryId)
      .where(sql`${t.status} in ('selected', 'finalized')`),
    index('wins_user_page_idx').on(t.userId, t.id),
    // An entry's delete checks every win of it, the disqualified and replaced ones too, which
    // wins_live_entry_idx leaves out.
    index('wins_entry_idx').on(t.entryId),
    index('wins_raffle_position_idx').on(t.raffleId, t.position),
  ],
);
