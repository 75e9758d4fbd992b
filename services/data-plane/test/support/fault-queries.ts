import type { Sql } from '@raffle/db';

/** Acknowledged entries the database does not hold: each one is a lost write. */
export async function missingEntryIds(sql: Sql, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await sql<{ id: string }[]>`select id from entries where id = any(${ids})`;
  const present = new Set(found.map((r) => r.id));
  return ids.filter((id) => !present.has(id));
}

/** How many of these entries have their `entry.created` event in the outbox (one per audience: entrant and workspace). */
export async function entriesWithCreatedEvents(sql: Sql, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await sql<{ n: number }[]>`
    select count(distinct payload::jsonb -> 'data' ->> 'id')::int as n
    from event_outbox
    where type = 'entry.created' and user_id is not null and payload::jsonb -> 'data' ->> 'id' = any(${ids})`;
  return row!.n;
}

/** The entries of one raffle, by entrant: an entrant with two is an idempotent write that ran twice. */
export async function entryIdsByEntrant(sql: Sql, raffleSlug: string): Promise<Map<string, string[]>> {
  const rows = await sql<{ userId: string; id: string }[]>`
    select e.user_id as "userId", e.id from entries e join raffles r on r.id = e.raffle_id where r.slug = ${raffleSlug} order by e.id`;
  const byEntrant = new Map<string, string[]>();
  for (const row of rows) byEntrant.set(row.userId, [...(byEntrant.get(row.userId) ?? []), row.id]);
  return byEntrant;
}
