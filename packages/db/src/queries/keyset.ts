/**
 * One keyset page of pre-rendered JSON. Queries fetch `limit + 1` rows: the extra row only
 * tells whether another page exists and is never returned.
 */
export type KeysetPage<K> = { items: string[]; lastKey: K | null; hasMore: boolean };

export function toKeysetPage<R extends { json: string }, K>(rows: readonly R[], limit: number, keyOf: (row: R) => K): KeysetPage<K> {
  const hasMore = rows.length > limit;
  const count = hasMore ? limit : rows.length;
  const items = new Array<string>(count);
  for (let i = 0; i < count; i++) items[i] = rows[i]!.json;
  return { items, lastKey: count > 0 ? keyOf(rows[count - 1]!) : null, hasMore };
}
