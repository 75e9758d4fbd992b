import type { DuplicateFlags } from '@raffle/contracts';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { raffleDrawSnapshots } from '../schema/draws.js';
import { entries } from '../schema/entries.js';
import { eligibleEntriesFilter, type EligibleRaffle } from './eligible-entries-filter.js';

export type { EligibleRaffle };

/** One entry of the eligible set as the draw ranks it; `weight` is numeric(20,6) as Postgres prints it. */
export type EligibleEntryRow = { id: string; userId: string; weight: string };

/** The next `limit` eligible entries after the id `after` ('' to start), in id order. */
export async function readEligibleEntryBatch(tx: DbOrTx, args: { raffle: EligibleRaffle; after: string; limit: number }): Promise<EligibleEntryRow[]> {
  return tx.execute<EligibleEntryRow>(sql`
      select id, user_id as "userId", entry_weight::text as weight from entries
      where ${eligibleEntriesFilter(args.raffle)} and id > ${args.after}
      order by id limit ${args.limit}`);
}

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

/** The eligible set the raffle's draw froze (see raffle_draw_snapshots), or null before its draw. */
export async function findDrawSnapshot(tx: DbOrTx, raffleId: string) {
  const [snapshot] = await tx.select().from(raffleDrawSnapshots).where(eq(raffleDrawSnapshots.raffleId, raffleId));
  return snapshot ?? null;
}
