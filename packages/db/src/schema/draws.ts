import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, idColumn } from './columns.js';
import { raffles } from './raffles.js';

/**
 * The eligible entries a draw ranked, frozen at draw time as the canonical lines the digest
 * covers (`id:userId:weight\n`, sorted by id). Entries change after a draw (disqualified, withdrawn
 * wins); the proof must not, so it is served from here, and rerolls rank the same set.
 */
export const raffleDrawSnapshots = pgTable('raffle_draw_snapshots', {
  raffleId: idColumn('raffle_id')
    .primaryKey()
    .references(() => raffles.id, { onDelete: 'cascade' }),
  algorithm: text('algorithm').notNull(),
  entryCount: integer('entry_count').notNull(),
  /** The canonical lines exactly as hashed into `raffles.entries_digest`. */
  entryLines: text('entry_lines').notNull(),
  createdAt: createdAt(),
});
