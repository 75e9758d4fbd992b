import type { Sql } from '../client.js';

/** The cheapest round trip that proves the database answers: the readiness probe's check. */
export async function pingDatabase(sql: Sql): Promise<void> {
  await sql`select 1`;
}
