import { appendEvents, schema, updateEntry, type Db, type NewEvent } from '@raffle/db';
import { and, eq, inArray } from 'drizzle-orm';
import { systemClock, type Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import { entryEvents } from '../events/resource-events.js';
import { lockRaffle } from '../raffles/raffle-locks.js';
import { disqualifyLiveWin, LIVE_WIN_STATUSES } from '../wins/win-transitions.js';
import type { EntryRecord } from './enter-raffle.js';
import { lockEntrableRaffle, type RaffleRef } from './find-entrable-raffle.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Entry statuses from which the entrant may withdraw or the team may disqualify. */
const ACTIVE_ENTRY_STATUSES = new Set(['pending', 'valid', 'invalid']);

async function lockEntry(tx: Tx, where: { raffleId: string; userId?: string; entryId?: string }): Promise<EntryRecord | null> {
  const { entries } = schema;
  const [row] = await tx
    .select()
    .from(entries)
    .where(
      and(
        eq(entries.raffleId, where.raffleId),
        where.userId ? eq(entries.userId, where.userId) : undefined,
        where.entryId ? eq(entries.id, where.entryId) : undefined,
      ),
    )
    .for('update');
  return row ?? null;
}

async function liveWinOf(tx: Tx, entryId: string) {
  const { wins } = schema;
  const [win] = await tx
    .select()
    .from(wins)
    .where(and(eq(wins.entryId, entryId), inArray(wins.status, [...LIVE_WIN_STATUSES])))
    .for('update');
  return win ?? null;
}

/**
 * The entrant withdraws while the raffle is open. An entry that already won (FCFS) stays: its
 * spot was handed out, and only the team can take it back (disqualify).
 */
export async function withdrawEntry(db: Db, args: { raffle: RaffleRef; userId: string; clock?: Clock }): Promise<EntryRecord> {
  const now = (args.clock ?? systemClock).now();
  return db.transaction(async (tx) => {
    const raffle = await lockEntrableRaffle(tx, args.raffle, args.userId);
    const entry = await lockEntry(tx, { raffleId: raffle.id, userId: args.userId });
    if (!entry) throw new DomainError('ENTRY_NOT_FOUND', 'you have no entry in this raffle');
    if (raffle.status !== 'open') throw new DomainError('ENTRY_NOT_WITHDRAWABLE', `the raffle is ${raffle.status}; entries can be withdrawn only while it is open`);
    if (!ACTIVE_ENTRY_STATUSES.has(entry.status)) throw new DomainError('ENTRY_NOT_WITHDRAWABLE', `the entry is already ${entry.status}`);
    if (await liveWinOf(tx, entry.id)) throw new DomainError('ENTRY_NOT_WITHDRAWABLE', 'the entry has already won a spot');
    const withdrawn = await updateEntry(tx, entry.id, raffle, { status: 'withdrawn', statusReason: 'Withdrawn by the entrant', updatedAt: now });
    await appendEvents(tx, entryEvents('entry.withdrawn', withdrawn!, raffle.workspaceId, now));
    return withdrawn!;
  });
}

/** The team disqualifies an entry; a win it holds is disqualified with it (its position can be rerolled). */
export async function disqualifyEntry(
  db: Db,
  args: { workspaceId: string; raffleId: string; entryId: string; reason: string; clock?: Clock },
): Promise<EntryRecord> {
  const now = (args.clock ?? systemClock).now();
  return db.transaction(async (tx) => {
    const raffle = await lockRaffle(tx, args);
    const entry = await lockEntry(tx, { raffleId: raffle.id, entryId: args.entryId });
    if (!entry) throw new DomainError('ENTRY_NOT_FOUND', `no entry ${args.entryId} in this raffle`);
    if (raffle.status === 'cancelled') throw new DomainError('ENTRY_CANNOT_DISQUALIFY', 'the raffle is cancelled');
    if (!ACTIVE_ENTRY_STATUSES.has(entry.status)) throw new DomainError('ENTRY_CANNOT_DISQUALIFY', `the entry is already ${entry.status}`);
    const events: NewEvent[] = [];
    const disqualified = await updateEntry(tx, entry.id, raffle, { status: 'disqualified', statusReason: args.reason, updatedAt: now });
    events.push(...entryEvents('entry.updated', disqualified!, raffle.workspaceId, now));
    const win = await liveWinOf(tx, entry.id);
    if (win) events.push(...(await disqualifyLiveWin(tx, win, raffle, args.reason, now)).events);
    await appendEvents(tx, events);
    return disqualified!;
  });
}
