import type { SqlOrTx } from '../client.js';

/** What a workspace's raffle list may be narrowed to; absent fields do not narrow it. */
export type RaffleListFilter = { status?: string; mechanic?: string; q?: string };

/** `text` as an ILIKE pattern that finds it anywhere, its own `%`, `_` and `\` matching themselves. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The filter as conditions to append to a postgres.js page query (`and …`, or nothing). The
 * search is a scan of the workspace's rows in key order, which the page's limit cuts short; a
 * workspace holds hundreds of raffles, not millions, so it needs no index of its own.
 */
export function raffleFilterFragment(sql: SqlOrTx, filter: RaffleListFilter) {
  const pattern = filter.q === undefined ? null : containsPattern(filter.q);
  return sql`
    ${filter.status === undefined ? sql`` : sql`and status = ${filter.status}`}
    ${filter.mechanic === undefined ? sql`` : sql`and mechanic = ${filter.mechanic}`}
    ${pattern === null ? sql`` : sql`and (title ilike ${pattern} or slug ilike ${pattern})`}`;
}

