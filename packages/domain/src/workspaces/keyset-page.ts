import { DASHBOARD_PAGE_SIZE, type Pagination } from '@raffle/contracts';
import { isIdOf, type IdKind } from '@raffle/db';
import { DomainError } from '../errors.js';

/** What a caller asks of a dashboard list. */
export type PageRequest = { limit?: number; cursor?: string };

/** One page: `limit + 1` rows are read, the extra one only says whether another page exists. */
export type Page<T> = { data: T[]; pagination: Pagination };

/**
 * Dashboard list cursors are base64url of the list's binding (which list, for which workspace or
 * user) and the last id seen. They are not signed — management holds no cursor secret — and need
 * not be: every list is filtered by what the caller may see, so an edited cursor can only skip
 * rows the caller could read anyway. A cursor that is not one of this list's answers 400.
 */
export function encodeCursor(binding: string, lastId: string): string {
  return Buffer.from(JSON.stringify([binding, lastId])).toString('base64url');
}

export function decodeCursor(binding: string, cursor: string, kind: IdKind): string {
  let value: unknown;
  try {
    value = /^[A-Za-z0-9_-]+$/.test(cursor) ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  } catch {
    value = null;
  }
  if (!Array.isArray(value) || value.length !== 2 || value[0] !== binding || typeof value[1] !== 'string' || !isIdOf(kind, value[1])) {
    throw new DomainError('INVALID_CURSOR', 'cursor is not one this list issued; start again without it');
  }
  return value[1];
}

export function pageLimit(limit: number | undefined): number {
  const value = limit ?? DASHBOARD_PAGE_SIZE.default;
  if (!Number.isInteger(value) || value < 1 || value > DASHBOARD_PAGE_SIZE.max) {
    throw new DomainError('INVALID_LIMIT', `limit must be an integer from 1 to ${DASHBOARD_PAGE_SIZE.max}`);
  }
  return value;
}

/** Resolves a request into the id to read after (null: from the start) and the page size. */
export function readPageRequest(binding: string, kind: IdKind, request: PageRequest): { after: string | null; limit: number } {
  const limit = pageLimit(request.limit);
  return { after: request.cursor === undefined ? null : decodeCursor(binding, request.cursor, kind), limit };
}

export function toPage<R, T>(rows: readonly R[], args: { limit: number; binding: string; idOf: (row: R) => string; render: (row: R) => T }): Page<T> {
  const hasMore = rows.length > args.limit;
  const shown = hasMore ? rows.slice(0, args.limit) : rows;
  return {
    data: shown.map(args.render),
    pagination: { nextCursor: hasMore ? encodeCursor(args.binding, args.idOf(shown[shown.length - 1]!)) : null, hasMore },
  };
}
