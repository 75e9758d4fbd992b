import type { Sql } from '@raffle/db';

/** Acknowledged projects and raffles the database does not hold: each one is a lost write. */
export async function missingWrites(sql: Sql, written: { projectIds: string[]; raffleIds: string[] }): Promise<string[]> {
  const projects = await sql<{ id: string }[]>`select id from projects where id = any(${written.projectIds})`;
  const raffles = await sql<{ id: string }[]>`select id from raffles where id = any(${written.raffleIds})`;
  const present = new Set([...projects, ...raffles].map((r) => r.id));
  return [...written.projectIds, ...written.raffleIds].filter((id) => !present.has(id));
}

/** How many of these projects have their `project.created` event in the outbox. */
export async function projectsWithCreatedEvents(sql: Sql, projectIds: string[]): Promise<number> {
  if (projectIds.length === 0) return 0;
  const [row] = await sql<{ n: number }[]>`
    select count(distinct payload::jsonb -> 'data' ->> 'id')::int as n
    from event_outbox
    where type = 'project.created' and payload::jsonb -> 'data' ->> 'id' = any(${projectIds})`;
  return row!.n;
}
