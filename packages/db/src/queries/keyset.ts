import { gt, lt, type Column } from 'drizzle-orm';

/**
 * The SQL side of keyset paging; the pages themselves (cursors, limits, `{ data, pagination }`)
 * are built by @raffle/domain's pagination. A page query reads one row more than the page shows:
 * the extra row only says whether another page exists.
 */
export const keysetReadSize = (limit: number) => limit + 1;

/** A stored rendering with its sort key: what the API's lists read, to join as it is. */
export type RenderedRow = { id: string; json: string };

/** Rows after the key, for a list in ascending key order; no condition on the first page. */
export const afterKey = (column: Column, after: string | null) => (after === null ? undefined : gt(column, after));

/** Rows before the key, for a list in descending key order; no condition on the first page. */
export const beforeKey = (column: Column, before: string | null) => (before === null ? undefined : lt(column, before));
