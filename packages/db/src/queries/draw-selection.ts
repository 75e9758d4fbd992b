import type { DuplicateFlags } from '@raffle/contracts';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { rawTransactionOf, type DbOrTx } from '../client.js';
import { readSnapshotChunkLines } from '../draw-snapshots/snapshot-chunks.js';
import { raffleDrawSnapshots } from '../schema/draws.js';
import { entries } from '../schema/entries.js';
import type { EligibleRaffle } from './eligible-entries-filter.js';

export type { EligibleRaffle };

/** An entry as a selection takes it: who, and the wallet snapshotted at entry. */
export type PickableEntryRow = { id: string; userId: string; walletSnapshot: string | null };

/** Those of `entryIds` that are valid entries of the raffle, in no particular order. */
export async function findValidEntries(tx: DbOrTx, args: { raffleId: string; entryIds: readonly string[] }): Promise<PickableEntryRow[]> {
  if (args.entryIds.length === 0) return [];
  return tx
    .select({ id: entries.id, userId: entries.userId, walletSnapshot: entries.walletSnapshot })
    .from(entries)
    .where(and(eq(entries.raffleId, args.raffleId), eq(entries.status, 'valid'), inArray(entries.id, [...args.entryIds])));
}

/** The valid entries of the raffle in arrival (id) order, leaving out `excluding`, with their duplicate flags. */
export async function listValidEntriesInArrivalOrder(
  tx: DbOrTx,
  args: { raffleId: string; excluding?: readonly string[] },
): Promise<(PickableEntryRow & { duplicateFlags: DuplicateFlags })[]> {
  const excluding = args.excluding ?? [];
  return tx
    .select({ id: entries.id, userId: entries.userId, walletSnapshot: entries.walletSnapshot, duplicateFlags: entries.duplicateFlags })
    .from(entries)
    .where(and(eq(entries.raffleId, args.raffleId), eq(entries.status, 'valid'), excluding.length > 0 ? notInArray(entries.id, [...excluding]) : undefined))
    .orderBy(entries.id);
}

/** The wallet each entry snapshotted, by entry id. */
export async function findEntryWallets(tx: DbOrTx, entryIds: readonly string[]): Promise<Map<string, string | null>> {
  if (entryIds.length === 0) return new Map();
  const rows = await tx.select({ id: entries.id, wallet: entries.walletSnapshot }).from(entries).where(inArray(entries.id, [...entryIds]));
  return new Map(rows.map((r) => [r.id, r.wallet]));
}

/**
 * The eligible set the raffle's draw froze (see raffle_draw_snapshots), or null before its draw;
 * `entryLines` is filled from the chunks for a snapshot that keeps them there (decision 0030).
 */
export async function findDrawSnapshot(tx: DbOrTx, raffleId: string): Promise<(typeof raffleDrawSnapshots.$inferSelect & { entryLines: string }) | null> {
  const [snapshot] = await tx.select().from(raffleDrawSnapshots).where(eq(raffleDrawSnapshots.raffleId, raffleId));
  if (!snapshot) return null;
  return { ...snapshot, entryLines: snapshot.entryLines ?? (await readSnapshotChunkLines(rawTransactionOf(tx), raffleId)) };
}
