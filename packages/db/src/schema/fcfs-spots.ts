import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { idColumn } from './columns.js';
import { raffles } from './raffles.js';

/**
 * An open FCFS raffle's spots, one row each (decision 0029): positions 1..spots, made when the
 * raffle opens. An entrant claims the lowest free one (`claim_fcfs_spot`, migration 0014), so
 * entries lock a spot each instead of sharing the raffle row, and commit in parallel. A spot is
 * free while `entry_id` is null; a disqualification while the raffle is open frees it again
 * (`free_fcfs_spot`).
 *
 * `entry_id` references entries through a deferred foreign key written in the migration (drizzle
 * cannot declare one): the spot is claimed before the entry's insert is sent, and checked at commit.
 */
export const fcfsSpots = pgTable(
  'fcfs_spots',
  {
    raffleId: idColumn('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    entryId: idColumn('entry_id'),
  },
  (t) => [
    primaryKey({ columns: [t.raffleId, t.position] }),
    // Only free spots: a claim finds the lowest without stepping over the taken ones.
    index('fcfs_spots_free_idx').on(t.raffleId, t.position).where(sql`${t.entryId} is null`),
    // Each deleted entry's foreign-key check finds its spot here, not by a scan of every spot
    // (a raffle's delete removes its entries one check each). Only taken spots carry an entry.
    index('fcfs_spots_entry_idx').on(t.entryId).where(sql`${t.entryId} is not null`),
  ],
);
