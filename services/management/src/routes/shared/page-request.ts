import type { CursorCodec, PageRequest } from '@raffle/domain';

/**
 * A list's query as the domain takes it. Management validates query strings without coercion,
 * so `limit` arrives as text the schema has already matched as a plain integer in range.
 */
export const pageRequestOf = (query: { limit?: string; cursor?: string }, cursors: CursorCodec): PageRequest => ({
  limit: query.limit === undefined ? undefined : Number(query.limit),
  cursor: query.cursor,
  cursors,
});
