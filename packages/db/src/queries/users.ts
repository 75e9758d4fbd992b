import type { Sql } from '../client.js';

export async function findProfileJson(sql: Sql, userId: string): Promise<string | null> {
  const [row] = await sql<{ json: string }[]>`select profile_json as json from users where id = ${userId}`;
  return row?.json ?? null;
}
