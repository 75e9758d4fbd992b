import { and, eq } from 'drizzle-orm';
import type { DbOrTx, Sql } from '../client.js';
import { projects } from '../schema/projects.js';
import { afterKey, keysetReadSize, type RenderedRow } from './keyset.js';

export async function pageWorkspaceProjects(
  sql: Sql,
  args: { workspaceId: string; after: string | null; limit: number },
): Promise<RenderedRow[]> {
  return sql<RenderedRow[]>`
    select id, api_json as json from projects
    where workspace_id = ${args.workspaceId} ${args.after ? sql`and id > ${args.after}` : sql``}
    order by id limit ${keysetReadSize(args.limit)}`;
}

export async function findWorkspaceProjectJson(sql: Sql, args: { workspaceId: string; projectId: string }): Promise<string | null> {
  const [row] = await sql<{ json: string }[]>`
    select api_json as json from projects where id = ${args.projectId} and workspace_id = ${args.workspaceId}`;
  return row?.json ?? null;
}

/** The dashboard's read of one project: its stored rendering, which the data plane serves too. */
export async function findProjectApiJson(db: DbOrTx, args: { workspaceId: string; projectId: string }): Promise<string | null> {
  const [row] = await db
    .select({ apiJson: projects.apiJson })
    .from(projects)
    .where(and(eq(projects.id, args.projectId), eq(projects.workspaceId, args.workspaceId)));
  return row?.apiJson ?? null;
}

/** The dashboard's page of the workspace's projects, in id (creation) order, with their stored rendering. */
export async function pageProjectApiJson(
  db: DbOrTx,
  args: { workspaceId: string; after: string | null; limit: number },
): Promise<{ id: string; apiJson: string }[]> {
  return db
    .select({ id: projects.id, apiJson: projects.apiJson })
    .from(projects)
    .where(and(eq(projects.workspaceId, args.workspaceId), afterKey(projects.id, args.after)))
    .orderBy(projects.id)
    .limit(keysetReadSize(args.limit));
}
