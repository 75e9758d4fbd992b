import type { RaffleRef } from '@raffle/db';

/**
 * Raffle refs known to name first-come raffles, as `enter_raffle` reported them. Their entries take
 * the transaction path (enterFcfsRaffle) straight away instead of asking the function first: one
 * round trip less per entry. Safe without expiry: a published raffle's mechanic never changes, and
 * a slug once published is never handed to another raffle (raffles_published_slug_unique).
 */
const FCFS_REFS_LIMIT = 1_000;
const fcfsRefs = new Set<string>();

const keyOf = (ref: RaffleRef) => ('slug' in ref ? `s:${ref.slug}` : `i:${ref.raffleId}`);

export const isKnownFcfsRaffle = (ref: RaffleRef): boolean => fcfsRefs.has(keyOf(ref));

export function rememberFcfsRaffle(ref: RaffleRef): void {
  if (fcfsRefs.size >= FCFS_REFS_LIMIT) fcfsRefs.clear();
  fcfsRefs.add(keyOf(ref));
}
