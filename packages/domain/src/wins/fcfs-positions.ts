import type { BeaconChain } from '@raffle/beacon';
import { boundTransaction, claimFcfsSpot, fcfsSpotsAllTaken, isDatabaseTimeout, lockRaffleRow, STATEMENT_BOUNDS, updateWin, type Db, type NewEvent, type Tx } from '@raffle/db';
import { winnerReplacedEvent } from '../events/resource-events.js';
import { closeStep } from '../raffles/lifecycle-steps.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';
import { winRaffleOf } from './win-transitions.js';

export type FcfsPosition = {
  position: number;
  /** winner.replaced for the disqualified win whose spot this entry took, if it took one. */
  replacing: NewEvent[];
  /** False when no free spot was left unclaimed: the entry may be the last, and tries the close once committed. */
  unclaimedLeft: boolean;
};

/**
 * The position a settled pending FCFS entry takes: the lowest free spot (decision 0029), claimed in
 * SQL for the entry. Null when every spot is taken: the raffle is full. A spot offered again after
 * a disqualification while the raffle was open leaves its disqualified win `replaced`, as a reroll
 * would. (A new entry claims in `enter_raffle`, migration 0016, by the same rules.)
 */
export async function claimFcfsPosition(tx: Tx, raffle: RaffleRecord, entryId: string, now: Date): Promise<FcfsPosition | null> {
  const claim = await claimFcfsSpot(tx, { raffleId: raffle.id, entryId });
  if (!claim) return null;
  if (!claim.replacesWinId) return { position: claim.position, replacing: [], unclaimedLeft: claim.unclaimedLeft };
  const replaced = await updateWin(tx, claim.replacesWinId, winRaffleOf(raffle), { status: 'replaced', replacedAt: now, updatedAt: now });
  return { position: claim.position, replacing: [winnerReplacedEvent(replaced!, raffle.workspaceId, now)], unclaimedLeft: claim.unclaimedLeft };
}

/**
 * Closes an open FCFS raffle whose every spot is taken, in a transaction of its own, after the
 * entry that may have taken the last spot committed. Its exclusive lock waits for the entries
 * still in flight (they share the row), so "every spot taken" is then exact: a claim that rolled
 * back left its spot free, and the raffle stays open for the next entrant, who closes it. Null
 * when it did not close (not full, or closed already by another).
 */
export async function closeFcfsWhenFull(tx: Tx, raffleId: string, now: Date, beacon: BeaconChain): Promise<RaffleRecord | null> {
  const raffle = await lockRaffleRow(tx, { raffleId, mode: 'no key update' });
  if (raffle?.status !== 'open' || !(await fcfsSpotsAllTaken(tx, raffleId))) return null;
  return closeStep(tx, raffle, now, beacon);
}

/**
 * As closeFcfsWhenFull, in its own transaction, bounded as a transition: it waits for the entries
 * in flight, not behind a queue of entrants (a full FCFS raffle is read without a lock). The entry
 * is committed by then, so a close that ran out of its lock wait does not fail it: the raffle
 * stays open and full (entrants are refused RAFFLE_FULL) until the next close, the scheduler's at
 * `endsAt` or the team's.
 */
export async function closeFcfsRaffleWhenFull(db: Db, raffleId: string, now: Date, beacon: BeaconChain): Promise<RaffleRecord | null> {
  try {
    return await db.transaction(async (tx) => {
      await boundTransaction(tx, STATEMENT_BOUNDS.transition);
      return closeFcfsWhenFull(tx, raffleId, now, beacon);
    });
  } catch (error) {
    if (isDatabaseTimeout(error)) return null;
    throw error;
  }
}
