import type { DeliveryStatus } from '@raffle/contracts';
import {
  appendEvents,
  findDrawSnapshot,
  findValidEntries,
  listEntryIdsThatWon,
  listValidEntriesInArrivalOrder,
  lockWinOfRaffle,
  updateWin,
  type Db,
  type NewEvent,
  type Tx,
} from '@raffle/db';
import { parseEntryLines, rankEntries } from '@raffle/sdk';
import { systemClock, type Clock } from '../clock.js';
import { isFlaggedDuplicate } from '../entries/recheck-requirements.js';
import { DomainError } from '../errors.js';
import { winEvents, winnerReplacedEvent } from '../events/resource-events.js';
import type { Principal } from '../principal.js';
import { snapshotRankingKey } from '../raffles/draw-beacon.js';
import { lockRaffleAs, type RaffleRecord } from '../raffles/raffle-locks.js';
import { queueAllowlistBuild } from '../allowlists/request-allowlist-build.js';
import { createWins, type WinPick } from './create-wins.js';
import { disqualifyLiveWin } from './win-steps.js';
import { winRaffleOf, type WinRecord } from './win-transitions.js';

/** A win to act on, and who acts: owners and admins of the raffle's workspace, or the system. */
type WinTarget = { actor: Principal; workspaceId: string; raffleId: string; winId: string; clock?: Clock };

async function lockWin(tx: Tx, raffleId: string, winId: string): Promise<WinRecord> {
  const win = await lockWinOfRaffle(tx, { raffleId, winId });
  if (!win) throw new DomainError('WIN_NOT_FOUND', `no win ${winId} in this raffle`);
  return win;
}

function withWin<T>(db: Db, target: WinTarget, step: (tx: Tx, raffle: RaffleRecord, win: WinRecord, now: Date) => Promise<T>) {
  const now = (target.clock ?? systemClock).now();
  return db.transaction(async (tx) => {
    const raffle = await lockRaffleAs(tx, target.actor, target);
    return step(tx, raffle, await lockWin(tx, raffle.id, target.winId), now);
  });
}

/** The team disqualifies a selected or finalized win; its position can then be rerolled. */
export function disqualifyWin(db: Db, target: WinTarget & { reason: string }): Promise<WinRecord> {
  return withWin(db, target, async (tx, raffle, win, now) => {
    if (win.status !== 'selected' && win.status !== 'finalized') {
      throw new DomainError('WIN_CANNOT_DISQUALIFY', `the win is already ${win.status}`);
    }
    const { win: updated, events } = await disqualifyLiveWin(tx, win, raffle, target.reason, now);
    await appendEvents(tx, events);
    return updated;
  });
}

/** Entries that held any win of this raffle, live or not: a reroll never picks them again. */
async function everWonEntryIds(tx: Tx, raffleId: string): Promise<Set<string>> {
  return new Set(await listEntryIdsThatWon(tx, raffleId));
}

/**
 * The entry that takes a freed position: for a drawn raffle, the next one in the frozen draw order
 * that is still valid and never won; for FCFS and collection, the next in arrival order; for an
 * application raffle, the team's pick.
 */
async function nextPick(tx: Tx, raffle: RaffleRecord, entryId: string | undefined): Promise<WinPick['entry']> {
  const won = await everWonEntryIds(tx, raffle.id);
  if (raffle.mechanic === 'application') {
    if (!entryId) throw new DomainError('VALIDATION_FAILED', 'an application raffle is rerolled by naming the replacement in entryId');
    const [entry] = await findValidEntries(tx, { raffleId: raffle.id, entryIds: [entryId] });
    if (!entry) throw new DomainError('VALIDATION_FAILED', `${entryId} is not a valid entry of this raffle`);
    if (won.has(entry.id)) throw new DomainError('WIN_CANNOT_REROLL', `entry ${entry.id} already won in this raffle`);
    return entry;
  }
  if (entryId) throw new DomainError('VALIDATION_FAILED', `entryId is only for application raffles; a ${raffle.mechanic} raffle picks its own replacement`);
  const candidates = await listValidEntriesInArrivalOrder(tx, { raffleId: raffle.id, excluding: [...won] });
  const eligible = new Map(candidates.filter((c) => !(raffle.settings.excludeFlaggedDuplicates && isFlaggedDuplicate(c.duplicateFlags))).map((c) => [c.id, c]));
  if (raffle.mechanic === 'raffle') {
    const snapshot = await findDrawSnapshot(tx, raffle.id);
    if (snapshot && raffle.drawSeed) {
      const next = rankEntries(snapshotRankingKey(raffle.drawSeed, snapshot.beacon), parseEntryLines(snapshot.entryLines)).find((e) => eligible.has(e.id));
      if (next) return eligible.get(next.id)!;
    }
  } else {
    const next = eligible.values().next();
    if (!next.done) return next.value;
  }
  throw new DomainError('NO_ELIGIBLE_ENTRIES', 'no eligible entry is left to take this position');
}

/**
 * disqualified → replaced: the position goes to the next entry (see nextPick), whose new win is
 * selected, or finalized straight away when the raffle already is.
 */
export function rerollWin(db: Db, target: WinTarget & { entryId?: string }): Promise<{ replaced: WinRecord; replacement: WinRecord }> {
  return withWin(db, target, async (tx, raffle, win, now) => {
    if (raffle.status !== 'drawn' && raffle.status !== 'finalized') {
      throw new DomainError('WIN_CANNOT_REROLL', `the raffle is ${raffle.status}; positions are rerolled once it is drawn`);
    }
    if (win.status !== 'disqualified') throw new DomainError('WIN_CANNOT_REROLL', `only a disqualified win can be rerolled; this one is ${win.status}`);
    const entry = await nextPick(tx, raffle, target.entryId);
    const replaced = await updateWin(tx, win.id, winRaffleOf(raffle), { status: 'replaced', replacedAt: now, updatedAt: now });
    const created = await createWins(tx, raffle, [{ entry, position: win.position, source: 'reroll' }], now);
    // A replacement of a finalized raffle is finalized at once: the allowlist gets a new version with it.
    await queueAllowlistBuild(tx, raffle, now);
    await appendEvents(tx, [winnerReplacedEvent(replaced!, raffle.workspaceId, now), ...created.events]);
    return { replaced: replaced!, replacement: created.wins[0]! };
  });
}

/** Delivery moves forward through pending → processing → delivered | failed; failed may be retried. */
const DELIVERY_MOVES: Record<DeliveryStatus, readonly DeliveryStatus[]> = {
  pending: ['processing', 'delivered', 'failed'],
  processing: ['pending', 'delivered', 'failed'],
  failed: ['pending', 'processing', 'delivered'],
  delivered: [],
  not_applicable: [],
};

export function setWinDelivery(
  db: Db,
  target: WinTarget & { deliveryStatus: DeliveryStatus; deliveryNote?: string | null },
): Promise<WinRecord> {
  return withWin(db, target, async (tx, raffle, win, now) => {
    if (win.status !== 'selected' && win.status !== 'finalized') {
      throw new DomainError('WIN_CANNOT_UPDATE_DELIVERY', `the win is ${win.status}; only live wins are delivered`);
    }
    const from = win.deliveryStatus as DeliveryStatus;
    const sameStatus = from === target.deliveryStatus;
    if (!sameStatus && !DELIVERY_MOVES[from].includes(target.deliveryStatus)) {
      throw new DomainError('WIN_CANNOT_UPDATE_DELIVERY', `delivery cannot move from ${from} to ${target.deliveryStatus}`);
    }
    const updated = await updateWin(tx, win.id, winRaffleOf(raffle), {
      deliveryStatus: target.deliveryStatus,
      ...(target.deliveryNote !== undefined ? { deliveryNote: target.deliveryNote } : {}),
      deliveredAt: target.deliveryStatus === 'delivered' ? (win.deliveredAt ?? now) : null,
      updatedAt: now,
    });
    const events: NewEvent[] = winEvents('delivery_updated', updated!, raffle.workspaceId, now);
    await appendEvents(tx, events);
    return updated!;
  });
}
