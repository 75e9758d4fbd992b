import { createHash } from 'node:crypto';
import { decimalString, type DbOrTx } from '@raffle/db';
import { drawKey, drawOrder, entryLine, type DrawEntry } from '@raffle/sdk';
import { sql, type SQL } from 'drizzle-orm';

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

/**
 * The draw's eligible set: valid entries, minus flagged duplicates when the raffle excludes them.
 * Flags are only ever written non-empty, so "has either key" is "is flagged", and the predicate
 * keeps the batches on the (raffle_id, id) index.
 */
export function eligibleEntriesFilter(raffle: { id: string; settings: { excludeFlaggedDuplicates: boolean } }): SQL {
  return sql`raffle_id = ${raffle.id} and status = 'valid'
    ${raffle.settings.excludeFlaggedDuplicates ? sql`and not (duplicate_flags ?| array['walletReuse', 'ipReuse'])` : sql``}`;
}

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
 * Streams the eligible set in id order, hashing its canonical lines and ranking each entry with
 * the SDK's key function, and keeps only the best `keep`: memory stays flat however many entries
 * the raffle has (a million-entry draw peaked at 470 MB when it kept them all).
 */
export async function rankEligibleEntries(
  tx: DbOrTx,
  raffle: { id: string; settings: { excludeFlaggedDuplicates: boolean } },
  seed: Buffer,
  keep: number,
): Promise<RankedEligible> {
  const hash = createHash('sha256');
  const best: Ranked[] = [];
  let count = 0;
  let after = '';
  for (;;) {
    const rows = (await tx.execute(sql`
      select id, user_id as "userId", entry_weight::text as weight from entries
      where ${eligibleEntriesFilter(raffle)} and id > ${after}
      order by id limit ${BATCH}`)) as unknown as { id: string; userId: string; weight: string }[];
    let chunk = '';
    for (const row of rows) {
      const entry: DrawEntry = { id: row.id, userId: row.userId, weight: decimalString(row.weight) };
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

/**
 * Freezes the eligible set as the proof will serve it: Postgres concatenates the canonical lines
 * itself (`trim_scale` prints weights as the API does), so the multi-megabyte text never passes
 * through Node. Its sha256 and count must equal what the ranking saw, or the draw is aborted.
 */
export async function storeDrawSnapshot(
  tx: DbOrTx,
  raffle: { id: string; settings: { excludeFlaggedDuplicates: boolean } },
  algorithm: string,
  expected: { count: number; entriesDigest: string },
): Promise<void> {
  const [stored] = (await tx.execute(sql`
    insert into raffle_draw_snapshots (raffle_id, algorithm, entry_count, entry_lines)
    select ${raffle.id}, ${algorithm}, count(*),
           coalesce(string_agg(id || ':' || user_id || ':' || trim_scale(entry_weight)::text || E'\\n', '' order by id), '')
    from entries where ${eligibleEntriesFilter(raffle)}
    returning entry_count as count, encode(sha256(convert_to(entry_lines, 'UTF8')), 'hex') as digest`)) as unknown as {
    count: number;
    digest: string;
  }[];
  if (stored!.count !== expected.count || stored!.digest !== expected.entriesDigest) {
    throw new Error(
      `draw snapshot of raffle ${raffle.id} does not match the ranked set (${stored!.count} vs ${expected.count} entries): aborting the draw`,
    );
  }
}
