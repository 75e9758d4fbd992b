import type { DbOrTx } from '../client.js';
import { newId } from '../ids.js';
import { renderProject } from '../render/project.js';
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
