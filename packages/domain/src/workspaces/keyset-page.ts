import { DASHBOARD_PAGE_SIZE, type Pagination } from '@raffle/contracts';
import { isIdOf, type IdKind } from '@raffle/db';
import type { CursorCodec } from '../cursor-codec.js';
import { DomainError } from '../errors.js';

/** What a caller asks of a dashboard list, and the service's cursor signer. */
export type PageRequest = { limit?: number; cursor?: string; cursors: CursorCodec };

/** One page: `limit + 1` rows are read, the extra one only says whether another page exists. */
export type Page<T> = { data: T[]; pagination: Pagination };

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
  const isId = (key: readonly unknown[]): key is [string] => key.length === 1 && typeof key[0] === 'string' && isIdOf(kind, key[0]);
  return { after: request.cursor === undefined ? null : request.cursors.decode(binding, request.cursor, isId)[0], limit };
}

export function toPage<R, T>(
  rows: readonly R[],
  args: { limit: number; binding: string; cursors: CursorCodec; idOf: (row: R) => string; render: (row: R) => T },
): Page<T> {
  const hasMore = rows.length > args.limit;
  const shown = hasMore ? rows.slice(0, args.limit) : rows;
  return {
    data: shown.map(args.render),
    pagination: { nextCursor: hasMore ? args.cursors.encode(args.binding, [args.idOf(shown[shown.length - 1]!)]) : null, hasMore },
  };
}
