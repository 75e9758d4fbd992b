import type { DrawBeaconBody, DrawEligibilityBlockBody } from '@raffle/contracts';
import { customType, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
  /**
   * The canonical lines exactly as hashed into `raffles.entries_digest`, for draws before
   * migration 0017. Later draws leave it null and store the same bytes, compressed, in
   * `raffle_draw_snapshot_chunks` (decision 0030); readers take whichever is there.
   */
  entryLines: text('entry_lines'),
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

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * A draw's canonical lines (decision 0030), as the draw streamed and hashed them: `seq` 0, 1, …
 * are consecutive byte ranges of about a megabyte of lines, each deflated on its own. Inflated
 * and joined in `seq` order they are the lines `raffles.entries_digest` is the sha256 of. Written
 * with binary COPY and read with it (a bytea parameter or column would travel as hex). Stored
 * EXTERNAL (migration 0017): the bytes are already compressed.
 */
export const raffleDrawSnapshotChunks = pgTable(
  'raffle_draw_snapshot_chunks',
  {
    raffleId: idColumn('raffle_id')
      .notNull()
      .references(() => raffleDrawSnapshots.raffleId, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.raffleId, t.seq] })],
);
