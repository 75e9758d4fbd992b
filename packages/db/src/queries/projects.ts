import type { Sql } from '../client.js';
import { toKeysetPage, type KeysetPage } from './keyset.js';

export async function pageWorkspaceProjects(
  sql: Sql,
  args: { workspaceId: string; after: string | null; limit: number },
): Promise<KeysetPage<string>> {
  const rows = await sql<{ id: string; json: string }[]>`
    select id, api_json as json from projects
    where workspace_id = ${args.workspaceId} ${args.after ? sql`and id > ${args.after}` : sql``}
    order by id limit ${args.limit + 1}`;
  return toKeysetPage(rows, args.limit, (r) => r.id);
}

export async function findWorkspaceProjectJson(sql: Sql, args: { workspaceId: string; projectId: string }): Promise<string | null> {
  const [row] = await sql<{ json: string }[]>`
    select api_json as json from projects where id = ${args.projectId} and workspace_id = ${args.workspaceId}`;
  return row?.json ?? null;
}
