import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { projects } from '../schema/projects.js';

/** Whether the project belongs to the workspace: a raffle may only name its own workspace's projects. */
export async function isProjectOfWorkspace(tx: DbOrTx, args: { projectId: string; workspaceId: string }): Promise<boolean> {
  const [project] = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.id, args.projectId), eq(projects.workspaceId, args.workspaceId)));
  return project !== undefined;
}
