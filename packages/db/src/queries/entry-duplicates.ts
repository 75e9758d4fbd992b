import type { DuplicateFlags } from '@raffle/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { entries } from '../schema/entries.js';

/** A signal two entries of one raffle may share. */
export type DuplicateSignal = { kind: 'wallet'; walletSnapshot: string } | { kind: 'ip'; ipHash: string };

/**
 * Takes the transaction-scoped advisory lock of one signal within one raffle: entries sharing it
 * queue on it, unrelated entries never wait on each other.
 */
export async function lockDuplicateSignal(tx: DbOrTx, args: { raffleId: string; signal: DuplicateSignal }): Promise<void> {
  const value = args.signal.kind === 'wallet' ? `w:${args.signal.walletSnapshot}` : `i:${args.signal.ipHash}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${args.raffleId}:${value}`}, 0))`);
}

/** The first `limit` entries of the raffle (in id order) sharing the signal. */
export async function listEntryIdsSharingSignal(tx: DbOrTx, args: { raffleId: string; signal: DuplicateSignal; limit: number }): Promise<string[]> {
  const shared =
    args.signal.kind === 'wallet' ? eq(entries.walletSnapshot, args.signal.walletSnapshot) : eq(entries.ipHash, args.signal.ipHash);
  const rows = await tx
    .select({ id: entries.id })
    .from(entries)
    .where(and(eq(entries.raffleId, args.raffleId), shared))
    .orderBy(entries.id)
    .limit(args.limit);
  return rows.map((r) => r.id);
}

export async function findEntryDuplicateFlags(tx: DbOrTx, entryId: string): Promise<DuplicateFlags | null> {
  const [row] = await tx.select({ flags: entries.duplicateFlags }).from(entries).where(eq(entries.id, entryId));
  return row?.flags ?? null;
}
