import type { DrawBeaconBody, DrawEligibilityBlockBody } from '@raffle/contracts';
import { integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, idColumn } from './columns.js';
import { raffles } from './raffles.js';

/** The proof's `beacon` block, stored as the proof shows it (contracts' DrawBeaconSchema). */
export type DrawBeaconRecord = DrawBeaconBody;

/** One entry of the proof's `eligibilityBlocks`, stored as the proof shows it (contracts' DrawEligibilityBlockSchema). */
export type EligibilityBlockRecord = DrawEligibilityBlockBody;

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
  /**
   * The verified beacon round an `es-hmac-sha256-drand-v1` draw mixed in, with the chain that
   * signed it (the proof's `beacon` block, as served). Null for `es-hmac-sha256-v1` draws. Kept
   * here rather than read from the pinned chain at render time: a later BEACON_CHAIN must not
   * change a published proof.
   */
  beacon: jsonb('beacon').$type<DrawBeaconRecord>(),
  /**
   * Per chain the raffle's requirements read, the block the draw re-evaluated them at: the first
   * at or after the close (decision 0028), sorted by chain. Null when the raffle reads no chain
   * (and for draws before migration 0013), so those proofs render as they always did.
   */
  eligibilityBlocks: jsonb('eligibility_blocks').$type<EligibilityBlockRecord[]>(),
  createdAt: createdAt(),
});
