import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { wins } from '../schema/wins.js';

/** A win of the raffle, locked for the rest of the transaction. */
export async function lockWinOfRaffle(tx: DbOrTx, args: { raffleId: string; winId: string }) {
  const [win] = await tx
    .select()
    .from(wins)
    .where(and(eq(wins.id, args.winId), eq(wins.raffleId, args.raffleId)))
    .for('update');
  return win ?? null;
}

/** The raffle's wins in any of `statuses`, by position, locked. */
export async function lockWinsOfRaffle(tx: DbOrTx, args: { raffleId: string; statuses: readonly string[] }) {
  return tx
    .select()
    .from(wins)
    .where(and(eq(wins.raffleId, args.raffleId), inArray(wins.status, [...args.statuses])))
    .orderBy(wins.position)
    .for('update');
}

/** The wins the entries hold in any of `statuses`, locked. */
export async function lockWinsOfEntries(tx: DbOrTx, args: { entryIds: readonly string[]; statuses: readonly string[] }) {
  return tx
    .select()
    .from(wins)
    .where(and(inArray(wins.entryId, [...args.entryIds]), inArray(wins.status, [...args.statuses])))
    .for('update');
}

/** Entries that held any win of this raffle, in any status. */
export async function listEntryIdsThatWon(tx: DbOrTx, raffleId: string): Promise<string[]> {
  const rows = await tx.select({ entryId: wins.entryId }).from(wins).where(eq(wins.raffleId, raffleId));
  return rows.map((r) => r.entryId);
}
