import { createHash } from 'node:crypto';
import { decimalString, readEligibleEntryBatch, type DbOrTx, type EligibleRaffle } from '@raffle/db';
import { drawKey, drawOrder, entryLine, malformedDrawEntryField, type DrawEntry } from '@raffle/sdk';

/** Rows per read: a million-entry draw reads in 20 index-ordered round trips. */
const BATCH = 50_000;

type Ranked = { key: number; id: string; userId: string };

export type RankedEligible = {
  count: number;
  /** sha256 of the canonical lines, computed as the batches stream past. */
  entriesDigest: string;
  /** The best `keep` entries in draw order (winners, plus whatever headroom the caller asked for). */
  ranked: { id: string; userId: string }[];
};

/** Inserts into a window of the `keep` best entries so far, kept in draw order. */
function offer(best: Ranked[], keep: number, candidate: Ranked): void {
  if (best.length === keep && drawOrder(candidate, best[keep - 1]!) >= 0) return;
  let lo = 0;
  let hi = best.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (drawOrder(best[mid]!, candidate) <= 0) lo = mid + 1;
    else hi = mid;
  }
  best.splice(lo, 0, candidate);
  if (best.length > keep) best.pop();
}

/**
 * An entry outside the proof's formats would make its canonical line ambiguous (and the proof
 * unverifiable), so the draw is aborted rather than published (decision 0021).
 */
function assertWellFormed(raffle: EligibleRaffle, entry: DrawEntry): void {
  const field = malformedDrawEntryField(entry);
  if (field) throw new Error(`entry ${JSON.stringify(entry.id)} of raffle ${raffle.id} has a ${field} (${JSON.stringify(entry[field])}) a draw proof cannot carry: aborting the draw`);
}

/**
 * Streams the eligible set (valid entries, minus flagged duplicates when the raffle excludes them)
 * in id order, hashing its canonical lines and ranking each entry with the SDK's key function,
 * and keeps only the best `keep`: memory stays flat however many entries the raffle has (a
 * million-entry draw peaked at 470 MB when it kept them all).
 */
export async function rankEligibleEntries(
  tx: DbOrTx,
  raffle: EligibleRaffle,
  seed: Buffer,
  keep: number,
): Promise<RankedEligible> {
  const hash = createHash('sha256');
  const best: Ranked[] = [];
  let count = 0;
  let after = '';
  for (;;) {
    const rows = await readEligibleEntryBatch(tx, { raffle, after, limit: BATCH });
    let chunk = '';
    for (const row of rows) {
      const entry: DrawEntry = { id: row.id, userId: row.userId, weight: decimalString(row.weight) };
      assertWellFormed(raffle, entry);
      chunk += entryLine(entry);
      if (keep > 0) offer(best, keep, { key: drawKey(seed, entry), id: entry.id, userId: entry.userId });
    }
    hash.update(chunk);
    count += rows.length;
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  return { count, entriesDigest: hash.digest('hex'), ranked: best.map(({ id, userId }) => ({ id, userId })) };
}
