import type { Project, ProjectSummary } from '@raffle/contracts';
import type { projects } from '../schema/projects.js';

export type ProjectRow = Omit<typeof projects.$inferSelect, 'apiJson'>;

export const toProject = (p: ProjectRow): Project => ({
  id: p.id,
  workspaceId: p.workspaceId,
  slug: p.slug,
  name: p.name,
  logoUrl: p.logoUrl,
  description: p.description,
  websiteUrl: p.websiteUrl,
  chain: p.chain,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

export const toProjectSummary = (p: Pick<ProjectRow, 'id' | 'slug' | 'name' | 'logoUrl'>): ProjectSummary => ({
  id: p.id,
  slug: p.slug,
  name: p.name,
  logoUrl: p.logoUrl,
});

export const renderProject = (p: ProjectRow): string => JSON.stringify(toProject(p));
