import type { PageSizeRule, Pagination } from '@raffle/contracts';
import type { CursorCodec } from './codec.js';
import { pageLimit } from './limit.js';

/** What a caller asks of a list: a page size and the previous page's cursor, with the codec that reads it. */
export type PageRequest = { limit?: number; cursor?: string; cursors: CursorCodec };

/** The list a request pages through: its binding (see cursorBinding), its page-size rule and its key's shape. */
export type PagedList<K> = { binding: string; rule: PageSizeRule; isKey: (key: unknown) => key is K };

/** A request, read: the key to read after (null: from the start), the page size, and how to sign the next cursor. */
export type PageRead<K> = { after: K | null; limit: number; binding: string; cursors: CursorCodec };

/** `{ data, pagination }`, the envelope of every list. */
export type Page<T> = { data: T[]; pagination: Pagination };

/** Checks the limit, then the cursor: either refusal is a 400 (INVALID_LIMIT, INVALID_CURSOR). */
export function readPageRequest<K>(request: PageRequest, list: PagedList<K>): PageRead<K> {
  const limit = pageLimit(request.limit, list.rule);
  const after = request.cursor === undefined ? null : request.cursors.decode(list.binding, request.cursor, list.isKey);
  return { after, limit, binding: list.binding, cursors: request.cursors };
}

/**
 * Queries read `limit + 1` rows: the extra one only says whether another page exists, and is
 * never shown. The next cursor carries the last shown row's key.
 */
function nextCursor<R, K>(rows: readonly R[], read: PageRead<K>, keyOf: (row: R) => K): string | null {
  return rows.length > read.limit ? read.cursors.encode(read.binding, keyOf(rows[read.limit - 1]!)) : null;
}

export function toPage<R, K, T>(rows: readonly R[], read: PageRead<K>, keyOf: (row: R) => K, render: (row: R) => T): Page<T> {
  const hasMore = rows.length > read.limit;
  const shown = hasMore ? rows.slice(0, read.limit) : rows;
  return { data: shown.map(render), pagination: { nextCursor: nextCursor(rows, read, keyOf), hasMore } };
}

/**
 * The same page as JSON text, around items the database stored already rendered (`json`): they
 * are joined as they are, with no parse and no re-serialisation per row. The API's hot lists
 * (see bench/) depend on it. `pagination` has exactly its two keys.
 */
export function renderJsonPage<R extends { json: string }, K>(rows: readonly R[], read: PageRead<K>, keyOf: (row: R) => K): string {
  const hasMore = rows.length > read.limit;
  const count = hasMore ? read.limit : rows.length;
  const items = new Array<string>(count);
  for (let i = 0; i < count; i++) items[i] = rows[i]!.json;
  const cursor = nextCursor(rows, read, keyOf);
  return `{"data":[${items.join(',')}],"pagination":{"nextCursor":${cursor === null ? 'null' : JSON.stringify(cursor)},"hasMore":${hasMore}}}`;
}

/**
 * One list page as JSON text, start to finish: reads the request (limit, then cursor), loads the
 * rows after its key (`limit + 1` of them, see keysetReadSize), renders them as renderJsonPage does.
 *
 * The data plane's list handlers await this one step rather than doing the three inline. With the
 * inline form, V8 kept every page's rows alive past two young-generation collections and promoted
 * them, about 25 KB per request on a 50-row page, for 15-30% more CPU per request
 * (`pnpm bench`, workspace entries); with this form, the lists' shape before the one-pagination-stack
 * change, it does not. Nothing of ours holds the rows; see docs/decisions/0015-read-path-gc.md.
 */
export async function loadJsonPage<R extends { json: string }, K>(
  request: PageRequest,
  list: PagedList<K>,
  load: (after: K | null, limit: number) => Promise<readonly R[]>,
  keyOf: (row: R) => K,
): Promise<string> {
  const page = readPageRequest(request, list);
  const rows = await load(page.after, page.limit);
  return renderJsonPage(rows, page, keyOf);
}
