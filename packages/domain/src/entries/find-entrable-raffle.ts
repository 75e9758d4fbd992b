import { findRaffleVisibleToUser, lockRaffleRow, type DbOrTx, type RaffleRef } from '@raffle/db';
import { DomainError } from '../errors.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';

export type { RaffleRef };

/** A raffle ref as a map key: the per-process caches of entering are keyed by what the caller sent. */
export const raffleRefKey = (ref: RaffleRef): string => ('slug' in ref ? `s:${ref.slug}` : `i:${ref.raffleId}`);

/**
 * Mechanics whose spots are counted as entries arrive (FCFS wins, collection entries): their
 * entries take the raffle row exclusively, one at a time; other entries share it.
 */
export const SPOT_COUNTED_MECHANICS: readonly string[] = ['fcfs', 'collection'];

/**
 * The raffle a user may enter or withdraw from, locked for this transaction. Visible as on the
 * personal raffle routes: published, and public or unlisted, or private to a workspace the user
 * belongs to; anything else is not found. FCFS and collection raffles take an exclusive lock
 * (spots are counted and handed out one entry at a time); others share it, so entries run in
 * parallel yet never commit across a close.
 */
export async function lockEntrableRaffle(tx: DbOrTx, ref: RaffleRef, userId: string): Promise<RaffleRecord> {
  const found = await findRaffleVisibleToUser(tx, { ref, userId });
  if (!found) throw new DomainError('RAFFLE_NOT_FOUND', 'no such raffle');
  const row = await lockRaffleRow(tx, { raffleId: found.id, mode: SPOT_COUNTED_MECHANICS.includes(found.mechanic) ? 'no key update' : 'share' });
  return row!;
}
