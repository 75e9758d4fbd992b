import type { DbOrTx } from '../client.js';
import { copySnapshotChunks } from '../draw-snapshots/snapshot-chunks.js';
import { raffleDrawSnapshots, type DrawBeaconRecord, type EligibilityBlockRecord } from '../schema/draws.js';

/**
 * Freezes the eligible set the draw ranked, as the proof will serve it: the canonical lines the
 * draw streamed and hashed, compressed into chunks (decision 0030), so what is stored is by
 * construction what the digest covers, and no entry row is read again. The blocks the draw
 * re-read on-chain requirements at are stored with it (none: null).
 */
export async function insertDrawSnapshot(
  tx: DbOrTx,
  args: {
    raffleId: string;
    algorithm: string;
    beacon: DrawBeaconRecord | null;
    eligibilityBlocks?: readonly EligibilityBlockRecord[];
    entryCount: number;
    /** The compressed chunks of the canonical lines, in order (compressSnapshotChunk). */
    chunks: readonly Buffer[];
  },
): Promise<void> {
  await tx.insert(raffleDrawSnapshots).values({
    raffleId: args.raffleId,
    algorithm: args.algorithm,
    beacon: args.beacon,
    eligibilityBlocks: args.eligibilityBlocks?.length ? [...args.eligibilityBlocks] : null,
    entryCount: args.entryCount,
    entryLines: null,
  });
  await copySnapshotChunks(tx, args.raffleId, args.chunks);
}
