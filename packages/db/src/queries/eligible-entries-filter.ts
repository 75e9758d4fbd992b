import { copyIdLiteral } from '../draw-snapshots/copy-literal.js';

/** What decides a raffle's eligible set: the raffle, and whether it leaves flagged duplicates out. */
export type EligibleRaffle = { id: string; settings: { excludeFlaggedDuplicates: boolean } };

/**
 * The draw's eligible set as a `where` condition on `entries`: valid entries, minus flagged
 * duplicates when the raffle excludes them. Flags are only ever written non-empty, so "has any
 * key" is "is flagged", and the condition keeps the read on the (raffle_id, id) index. Text with
 * the raffle's id written in (copyIdLiteral), because the draw reads the set with COPY, which
 * takes no bind parameters.
 */
export function eligibleEntriesCondition(raffle: EligibleRaffle): string {
  const duplicates = raffle.settings.excludeFlaggedDuplicates ? ` and not (duplicate_flags ?| array['walletReuse', 'ipReuse', 'discordReuse', 'xReuse'])` : '';
  return `raffle_id = ${copyIdLiteral(raffle.id)} and status = 'valid'${duplicates}`;
}
