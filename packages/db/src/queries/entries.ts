import type { Sql } from '../client.js';
import { keysetReadSize, type RenderedRow } from './keyset.js';

/** Arrival order: ids are time-sortable. The hot read of the platform; see bench/. */
export async function pageRaffleEntries(
  sql: Sql,
  args: { raffleId: string; after: string | null; limit: number },
): Promise<RenderedRow[]> {
  return args.after
    ? sql<RenderedRow[]>`
        select id, workspace_json as json from entries
        where raffle_id = ${args.raffleId} and id > ${args.after}
        order by id limit ${keysetReadSize(args.limit)}`
    : sql<RenderedRow[]>`
        select id, workspace_json as json from entries
        where raffle_id = ${args.raffleId}
        order by id limit ${keysetReadSize(args.limit)}`;
}

/** The key owner's entries, newest first. */
export async function pageUserEntries(
  sql: Sql,
  args: { userId: string; before: string | null; limit: number },
): Promise<RenderedRow[]> {
  return sql<RenderedRow[]>`
    select id, owner_json as json from entries
    where user_id = ${args.userId} ${args.before ? sql`and id < ${args.before}` : sql``}
    order by id desc limit ${keysetReadSize(args.limit)}`;
}

export async function findOwnerEntryJson(sql: Sql, args: { raffleId: string; userId: string }): Promise<string | null> {
  const [row] = await sql<{ json: string }[]>`
    select owner_json as json from entries where raffle_id = ${args.raffleId} and user_id = ${args.userId}`;
  return row?.json ?? null;
}
