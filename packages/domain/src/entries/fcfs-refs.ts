import type { RaffleRef } from '@raffle/db';
import { raffleRefKey } from './find-entrable-raffle.js';

/**
 * Raffle refs known to name first-come raffles, as `enter_raffle` reported them. Their entries take
 * the transaction path (enterFcfsRaffle) straight away instead of asking the function first: one
 * round trip less per entry. Safe without expiry: a published raffle's mechanic never changes, and
 * a slug once published is never handed to another raffle (raffles_published_slug_unique).
 */
const FCFS_REFS_LIMIT = 1_000;
const fcfsRefs = new Set<string>();


export const isKnownFcfsRaffle = (ref: RaffleRef): boolean => fcfsRefs.has(raffleRefKey(ref));

export function rememberFcfsRaffle(ref: RaffleRef): void {
  if (fcfsRefs.size >= FCFS_REFS_LIMIT) fcfsRefs.clear();
  fcfsRefs.add(raffleRefKey(ref));
}
