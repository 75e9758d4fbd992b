import type { Readable } from 'node:stream';
import { rawTransactionOf, type DbOrTx } from '../client.js';
import { eligibleEntriesCondition, type EligibleRaffle } from '../queries/eligible-entries-filter.js';

/**
 * The raffle's eligible set in id order as COPY's text rows `id<TAB>userId<TAB>weight\n`, streamed:
 * postgres.js hands over the bytes as they arrive, with no row objects or strings in between, and
 * for well-formed fields they are the canonical lines but for the two separators (the draw puts
 * `:` there). Columns rather than one concatenated line so that a malformed field cannot hide a
 * separator: COPY escapes a backslash, tab or newline inside a value, so a row splits one way
 * only. `trim_scale` prints the weight as the API does.
 */
export async function copyEligibleLines(tx: DbOrTx, raffle: EligibleRaffle): Promise<Readable> {
  const query = `copy (select id, user_id, trim_scale(entry_weight)::text from entries where ${eligibleEntriesCondition(raffle)} order by id) to stdout`;
  return (await rawTransactionOf(tx).unsafe(query).readable()) as Readable;
}
