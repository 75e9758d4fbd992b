/**
 * Every row of a keyset-ordered list, batch after batch, for a reader that takes them all (an
 * export) rather than a page. Each batch is one short query, so the database connection is held
 * for a batch, never for the whole read however slowly the reader takes the rows, and the reads
 * work the same through a transaction-mode pooler. The batches are not one snapshot: a row that
 * changes mid-read shows as it was when its batch was read.
 *
 * The first batch is read before this resolves, so a failure there fails the caller's request
 * (an error answer) instead of cutting a download short. `load` may return more rows than `size`
 * (a page query's look-ahead row): a batch shorter than `size` is taken to be the last.
 */
export async function readKeysetBatches<R, K>(
  load: (after: K | null, size: number) => Promise<readonly R[]>,
  keyOf: (row: R) => K,
  size: number,
): Promise<AsyncIterable<readonly R[]>> {
  const first = await load(null, size);
  return (async function* () {
    let batch = first;
    for (;;) {
      if (batch.length > 0) yield batch;
      if (batch.length < size) return;
      batch = await load(keyOf(batch[batch.length - 1]!), size);
    }
  })();
}
