import { and, asc, eq, inArray, notExists } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
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

const live = alias(wins, 'live');

/**
 * The disqualified win holding the lowest position no live win holds, locked: the position an
 * open FCFS raffle hands out next when a disqualification freed one.
 */
export async function lockFreedPosition(tx: DbOrTx, args: { raffleId: string; liveStatuses: readonly string[] }) {
  const [win] = await tx
    .select()
    .from(wins)
    .where(
      and(
        eq(wins.raffleId, args.raffleId),
        eq(wins.status, 'disqualified'),
        notExists(
          tx
            .select({ id: live.id })
            .from(live)
            .where(and(eq(live.raffleId, wins.raffleId), eq(live.position, wins.position), inArray(live.status, [...args.liveStatuses]))),
        ),
      ),
    )
    .orderBy(asc(wins.position))
    .limit(1)
    .for('update', { of: wins });
  return win ?? null;
}
