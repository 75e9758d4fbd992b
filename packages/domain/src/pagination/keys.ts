import { isIdOf, type IdKind } from '@raffle/db';

/**
 * The shapes a cursor's key may take, checked after its signature holds. The API's lists carry a
 * bare id (or the public list's `{ publishedAt, id }`); the dashboard's carry `[id]` or
 * `[position, id]`. The shapes are part of the cursors already issued, so they stay as they are.
 */
export const isStringKey = (key: unknown): key is string => typeof key === 'string' && key.length > 0;

export const isIdKey =
  (kind: IdKind) =>
  (key: unknown): key is [string] =>
    Array.isArray(key) && key.length === 1 && typeof key[0] === 'string' && isIdOf(kind, key[0]);

export const isPositionIdKey =
  (kind: IdKind) =>
  (key: unknown): key is [number, string] =>
    Array.isArray(key) &&
    key.length === 2 &&
    Number.isSafeInteger(key[0]) &&
    (key[0] as number) >= 1 &&
    typeof key[1] === 'string' &&
    isIdOf(kind, key[1]);
