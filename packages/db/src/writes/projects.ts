import { and, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.js';
import { newId } from '../ids.js';
import { renderProject, type ProjectRow } from '../render/project.js';
import { projects } from '../schema/projects.js';

export type NewProject = {
  id?: string;
  workspaceId: string;
  slug: string;
  name: string;
  logoUrl?: string | null;
  description?: string | null;
  websiteUrl?: string | null;
  chain?: string | null;
  createdAt?: Date;
};

export async function insertProject(tx: DbOrTx, input: NewProject) {
  const now = input.createdAt ?? new Date();
  const row = {
    id: input.id ?? newId('project', now.getTime()),
    workspaceId: input.workspaceId,
    slug: input.slug,
    name: input.name,
    logoUrl: input.logoUrl ?? null,
    description: input.description ?? null,
    websiteUrl: input.websiteUrl ?? null,
    chain: input.chain ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const [project] = await tx
    .insert(projects)
    .values({ ...row, apiJson: renderProject(row) })
    .returning();
  return project!;
}

/** The workspace's project, row-locked until the transaction ends; null when it is not in this workspace. */
export async function lockProjectRow(tx: Tx, args: { workspaceId: string; projectId: string }) {
  const [row] = await tx
    .select()
    .from(projects)
    .where(and(eq(projects.id, args.projectId), eq(projects.workspaceId, args.workspaceId)))
    .for('update');
  return row ?? null;
}

/** Stores the project's new fields with their rendering (which the caller also records in its event). */
export async function updateProjectRow(tx: DbOrTx, project: ProjectRow & { apiJson: string }): Promise<void> {
  await tx.update(projects).set(project).where(eq(projects.id, project.id));
}

export async function deleteProjectRow(tx: DbOrTx, projectId: string): Promise<void> {
  await tx.delete(projects).where(eq(projects.id, projectId));
}
