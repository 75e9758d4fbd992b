import { appendEvents, lockRaffleEntry, lockWinsOfEntries, updateEntry, type Db, type NewEvent, type Tx } from '@raffle/db';
import { systemClock, type Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import { entryEvents } from '../events/resource-events.js';
import type { Principal } from '../principal.js';
import { lockRaffleAs } from '../raffles/raffle-locks.js';
import { disqualifyLiveWin } from '../wins/win-steps.js';
import { LIVE_WIN_STATUSES } from '../wins/win-transitions.js';
import type { EntryRecord } from './enter-raffle.js';
import { entrantOf } from './entrant.js';
import { lockEntrableRaffle, type RaffleRef } from './find-entrable-raffle.js';

/** Entry statuses from which the entrant may withdraw or the team may disqualify. */
const ACTIVE_ENTRY_STATUSES = new Set(['pending', 'valid', 'invalid']);

async function liveWinOf(tx: Tx, entryId: string) {
  const [win] = await lockWinsOfEntries(tx, { entryIds: [entryId], statuses: LIVE_WIN_STATUSES });
  return win ?? null;
}

/**
 * The acting user withdraws their entry while the raffle is open. An entry that already won
 * (FCFS) stays: its spot was handed out, and only the team can take it back (disqualify).
 */
export async function withdrawEntry(db: Db, args: { actor: Principal; raffle: RaffleRef; clock?: Clock }): Promise<EntryRecord> {
  const now = (args.clock ?? systemClock).now();
  return db.transaction(async (tx) => {
    const userId = entrantOf(args.actor);
    const raffle = await lockEntrableRaffle(tx, args.raffle, userId);
    const entry = await lockRaffleEntry(tx, { raffleId: raffle.id, userId });
    if (!entry) throw new DomainError('ENTRY_NOT_FOUND', 'you have no entry in this raffle');
    if (raffle.status !== 'open') throw new DomainError('ENTRY_NOT_WITHDRAWABLE', `the raffle is ${raffle.status}; entries can be withdrawn only while it is open`);
    if (!ACTIVE_ENTRY_STATUSES.has(entry.status)) throw new DomainError('ENTRY_NOT_WITHDRAWABLE', `the entry is already ${entry.status}`);
    if (await liveWinOf(tx, entry.id)) throw new DomainError('ENTRY_NOT_WITHDRAWABLE', 'the entry has already won a spot');
    const withdrawn = await updateEntry(tx, entry.id, raffle, { status: 'withdrawn', statusReason: 'Withdrawn by the entrant', updatedAt: now });
    await appendEvents(tx, entryEvents('entry.withdrawn', withdrawn!, raffle.workspaceId, now));
    return withdrawn!;
  });
}

/**
 * The team (owners and admins) disqualifies an entry; a win it holds is disqualified with it (its
 * position can be rerolled).
 */
export async function disqualifyEntry(
  db: Db,
  args: { actor: Principal; workspaceId: string; raffleId: string; entryId: string; reason: string; clock?: Clock },
): Promise<EntryRecord> {
  const now = (args.clock ?? systemClock).now();
  return db.transaction(async (tx) => {
    const raffle = await lockRaffleAs(tx, args.actor, args);
    const entry = await lockRaffleEntry(tx, { raffleId: raffle.id, entryId: args.entryId });
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
