import type { Sql } from '../client.js';
import { toKeysetPage, type KeysetPage } from './keyset.js';

/** Arrival order: ids are time-sortable. The hot read of the platform; see bench/. */
export async function pageRaffleEntries(
  sql: Sql,
  args: { raffleId: string; after: string | null; limit: number },
): Promise<KeysetPage<string>> {
  const rows = args.after
    ? await sql<{ id: string; json: string }[]>`
        select id, workspace_json as json from entries
        where raffle_id = ${args.raffleId} and id > ${args.after}
        order by id limit ${args.limit + 1}`
    : await sql<{ id: string; json: string }[]>`
        select id, workspace_json as json from entries
        where raffle_id = ${args.raffleId}
        order by id limit ${args.limit + 1}`;
  return toKeysetPage(rows, args.limit, (r) => r.id);
}

/** The key owner's entries, newest first. */
export async function pageUserEntries(
  sql: Sql,
  args: { userId: string; before: string | null; limit: number },
): Promise<KeysetPage<string>> {
  const rows = await sql<{ id: string; json: string }[]>`
    select id, owner_json as json from entries
    where user_id = ${args.userId} ${args.before ? sql`and id < ${args.before}` : sql``}
    order by id desc limit ${args.limit + 1}`;
  return toKeysetPage(rows, args.limit, (r) => r.id);
}

export async function findOwnerEntryJson(sql: Sql, args: { raffleId: string; userId: string }): Promise<string | null> {
  const [row] = await sql<{ json: string }[]>`
    select owner_json as json from entries where raffle_id = ${args.raffleId} and user_id = ${args.userId}`;
  return row?.json ?? null;
}
