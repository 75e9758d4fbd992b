import type { CursorCodec, CursorKey } from '@raffle/domain';

/** `limit + 1` rows were read: the extra one only says whether another page exists. */
export function pageOf<R, T>(rows: readonly R[], args: { limit: number; binding: string; cursors: CursorCodec; keyOf: (row: R) => CursorKey; render: (row: R) => T }) {
  const hasMore = rows.length > args.limit;
  const shown = hasMore ? rows.slice(0, args.limit) : rows;
  return {
    data: shown.map(args.render),
    pagination: { nextCursor: hasMore ? args.cursors.encode(args.binding, args.keyOf(shown[shown.length - 1]!)) : null, hasMore },
  };
}
