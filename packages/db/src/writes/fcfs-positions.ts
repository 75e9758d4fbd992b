import { rawTransactionOf, type DbOrTx } from '../client.js';

// An FCFS raffle's spots are two counters on its row (decision 0009): the highest position handed
// out, and how many of those were freed by a disqualification while it was open. The caller holds
// the raffle row's lock. Only these columns change: the raffle's rendered views and `updated_at`
// stay as they are (neither counter is part of a view), so the update can stay on the row's page.

/** Sets an FCFS raffle's counters after an entry took a position; sent in the entry's write pipeline. */
export async function recordFcfsPositions(tx: DbOrTx, raffleId: string, counts: { taken: number; freed: number }): Promise<void> {
  await rawTransactionOf(tx)`update raffles set positions_taken = ${counts.taken}, positions_freed = ${counts.freed} where id = ${raffleId}`;
}

/** A live win of the open FCFS raffle was disqualified: its position goes to the next entrant. */
export async function freeFcfsPosition(tx: DbOrTx, raffleId: string): Promise<void> {
  await rawTransactionOf(tx)`update raffles set positions_freed = positions_freed + 1 where id = ${raffleId}`;
}
