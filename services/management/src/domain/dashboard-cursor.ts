import { DomainError } from '@raffle/domain';

export type CursorKey = readonly (string | number)[];

/**
 * Dashboard list cursors, made as the workspace and project lists make theirs: base64url of the
 * list's binding (which list, of which raffle, with which filter) and the key of the last row
 * shown. Not signed: every list is filtered by what the caller may read, so an edited cursor can
 * only skip rows the caller could see anyway.
 */
export function encodeCursor(binding: string, key: CursorKey): string {
  return Buffer.from(JSON.stringify([binding, ...key])).toString('base64url');
}

/**
 * The key a cursor of this list carries. Another list's cursor, one issued under a different
 * filter, or anything malformed answers 400 INVALID_CURSOR.
 */
export function decodeCursor<K extends CursorKey>(binding: string, cursor: string, isKey: (key: readonly unknown[]) => key is K): K {
  let value: unknown = null;
  if (/^[A-Za-z0-9_-]+$/.test(cursor)) {
    try {
      value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      value = null;
    }
  }
  if (Array.isArray(value) && value[0] === binding) {
    const key = value.slice(1);
    if (isKey(key)) return key;
  }
  throw new DomainError('INVALID_CURSOR', 'cursor is not one this list issued; start again without it');
}

/** `limit + 1` rows were read: the extra one only says whether another page exists. */
export function pageOf<R, T>(rows: readonly R[], args: { limit: number; binding: string; keyOf: (row: R) => CursorKey; render: (row: R) => T }) {
  const hasMore = rows.length > args.limit;
  const shown = hasMore ? rows.slice(0, args.limit) : rows;
  return {
    data: shown.map(args.render),
    pagination: { nextCursor: hasMore ? encodeCursor(args.binding, args.keyOf(shown[shown.length - 1]!)) : null, hasMore },
  };
}
