import { createHash } from 'node:crypto';
import { decimalString, type DbOrTx } from '@raffle/db';
import { drawKey, drawOrder, entryLine, type DrawEntry } from '@raffle/sdk';
import { sql } from 'drizzle-orm';

/** Rows per read: a million-entry draw reads in 20 round trips without holding them twice. */
const BATCH = 50_000;

export type RankedEligible = {
  /** The canonical lines, exactly what the digest covers and the proof serves. */
  lines: string;
  count: number;
  entriesDigest: string;
  /** Entry ids in draw order, as far as anyone may need them (winners plus reroll headroom). */
  ranked: { id: string; userId: string }[];
};

/**
 * The draw's eligible set (valid entries, minus flagged duplicates when the raffle says so) in id
 * order, hashed and ranked with the SDK's key function. Keys live in a Float64Array and ids in
 * one array, so a million entries stay far below the memory a million objects would take.
 */
export async function rankEligibleEntries(
  tx: DbOrTx,
  raffle: { id: string; settings: { excludeFlaggedDuplicates: boolean } },
  seed: Buffer,
  keep: number,
): Promise<RankedEligible> {
  const hash = createHash('sha256');
  const chunks: string[] = [];
  const ids: string[] = [];
  const userIds: string[] = [];
  let keys = new Float64Array(1024);
  let after = '';
  for (;;) {
    const rows = (await tx.execute(sql`
      select id, user_id as "userId", entry_weight::text as weight from entries
      where raffle_id = ${raffle.id} and status = 'valid' and id > ${after}
        ${raffle.settings.excludeFlaggedDuplicates ? sql`and coalesce(jsonb_array_length(duplicate_flags->'walletReuse'), 0) = 0 and coalesce(jsonb_array_length(duplicate_flags->'ipReuse'), 0) = 0` : sql``}
      order by id limit ${BATCH}`)) as unknown as { id: string; userId: string; weight: string }[];
    if (rows.length === 0) break;
    let chunk = '';
    for (const row of rows) {
      const entry: DrawEntry = { id: row.id, userId: row.userId, weight: decimalString(row.weight) };
      const line = entryLine(entry);
      chunk += line;
      if (ids.length === keys.length) {
        const grown = new Float64Array(keys.length * 2);
        grown.set(keys);
        keys = grown;
      }
      keys[ids.length] = drawKey(seed, entry);
      ids.push(entry.id);
      userIds.push(entry.userId);
    }
    hash.update(chunk);
    chunks.push(chunk);
    after = rows[rows.length - 1]!.id;
    if (rows.length < BATCH) break;
  }
  const order = topIndices(keys, ids, keep);
  return {
    lines: chunks.join(''),
    count: ids.length,
    entriesDigest: hash.digest('hex'),
    ranked: order.map((i) => ({ id: ids[i]!, userId: userIds[i]! })),
  };
}

/** The indices of the `keep` best keys in draw order, without sorting the whole set. */
function topIndices(keys: Float64Array, ids: string[], keep: number): number[] {
  const n = ids.length;
  const limit = Math.min(keep, n);
  if (limit === 0) return [];
  const cmp = (a: number, b: number) => drawOrder({ key: keys[a]!, id: ids[a]! }, { key: keys[b]!, id: ids[b]! });
  if (limit * 8 >= n) return Array.from({ length: n }, (_, i) => i).sort(cmp).slice(0, limit);
  // Keep a sorted window of the best `limit`; most entries fail the first comparison.
  const best: number[] = [];
  for (let i = 0; i < n; i++) {
    if (best.length === limit && cmp(i, best[limit - 1]!) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(best[mid]!, i) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, i);
    if (best.length > limit) best.pop();
  }
  return best;
}
