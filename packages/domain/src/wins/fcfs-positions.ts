import { lockFreedPosition, updateWin, type NewEvent, type Tx } from '@raffle/db';
import { winnerReplacedEvent } from '../events/resource-events.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';
import { LIVE_WIN_STATUSES, winRaffleOf } from './win-transitions.js';

/**
 * The position the next FCFS entrant takes, with the raffle's counters after it (decision 0009).
 * Normally one past the highest handed out, read from the raffle row locked by the admission:
 * no count of wins. When a disqualification freed a position while the raffle was open, the
 * lowest freed one instead: its disqualified win becomes `replaced`, as a reroll would leave it.
 */
export async function nextFcfsPosition(
  tx: Tx,
  raffle: RaffleRecord,
  now: Date,
): Promise<{ position: number; counts: { taken: number; freed: number }; replacing: NewEvent[] }> {
  const taken = raffle.positionsTaken;
  if (raffle.positionsFreed > 0) {
    const freed = await lockFreedPosition(tx, { raffleId: raffle.id, liveStatuses: LIVE_WIN_STATUSES });
    if (freed) {
      const replaced = await updateWin(tx, freed.id, winRaffleOf(raffle), { status: 'replaced', replacedAt: now, updatedAt: now });
      return {
        position: freed.position,
        counts: { taken, freed: raffle.positionsFreed - 1 },
        replacing: [winnerReplacedEvent(replaced!, raffle.workspaceId, now)],
      };
    }
  }
  // No freed position is left to find (a count that drifted is mended here): the next one.
  return { position: taken + 1, counts: { taken: taken + 1, freed: 0 }, replacing: [] };
}
