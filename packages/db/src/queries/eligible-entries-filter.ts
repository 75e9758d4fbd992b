import { sql, type SQL } from 'drizzle-orm';

/** What decides a raffle's eligible set: the raffle, and whether it leaves flagged duplicates out. */
export type EligibleRaffle = { id: string; settings: { excludeFlaggedDuplicates: boolean } };

/**
 * The draw's eligible set: valid entries, minus flagged duplicates when the raffle excludes them.
 * Flags are only ever written non-empty, so "has either key" is "is flagged", and the predicate
 * keeps the batches on the (raffle_id, id) index.
 */
export function eligibleEntriesFilter(raffle: EligibleRaffle): SQL {
  return sql`raffle_id = ${raffle.id} and status = 'valid'
    ${raffle.settings.excludeFlaggedDuplicates ? sql`and not (duplicate_flags ?| array['walletReuse', 'ipReuse'])` : sql``}`;
}
