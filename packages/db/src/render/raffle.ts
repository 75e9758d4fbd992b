import type { PublicRaffle, PublicRaffleItem, WorkspaceRaffle, WorkspaceRaffleItem } from '@raffle/contracts';
import type { raffles } from '../schema/raffles.js';
import type { workspaces } from '../schema/workspaces.js';
import { isoOrAbsent, isoOrNull, textOrAbsent } from './iso.js';
import { toProjectSummary, type ProjectRow } from './project.js';

export type RaffleRow = Omit<typeof raffles.$inferSelect, 'workspaceItemJson' | 'publicItemJson'>;
export type WorkspaceRow = typeof workspaces.$inferSelect;
export type CanonicalProject = Pick<ProjectRow, 'id' | 'slug' | 'name' | 'logoUrl'> | null;

/** What rendering a raffle needs beyond its own row. */
export type RaffleContext = { workspace: WorkspaceRow; canonicalProject: CanonicalProject };

export const toWorkspaceRaffleItem = (r: RaffleRow, ctx: RaffleContext): WorkspaceRaffleItem => ({
  id: r.id,
  slug: r.slug,
  title: r.title,
  mechanic: r.mechanic as WorkspaceRaffleItem['mechanic'],
  allocationType: r.allocationType as WorkspaceRaffleItem['allocationType'],
  visibility: r.visibility as WorkspaceRaffleItem['visibility'],
  status: r.status as WorkspaceRaffleItem['status'],
  spots: r.spots,
  chain: r.chain,
  startsAt: isoOrNull(r.startsAt),
  endsAt: isoOrNull(r.endsAt),
  publishedAt: isoOrNull(r.publishedAt),
  openedAt: isoOrNull(r.openedAt),
  closedAt: isoOrNull(r.closedAt),
  beaconRound: r.beaconRound,
  finalizedAt: isoOrNull(r.finalizedAt),
  canonicalProject: ctx.canonicalProject ? toProjectSummary(ctx.canonicalProject) : null,
});

const publicRequirements = (r: RaffleRow) => r.requirements.map(({ id, type, label }) => ({ id, type, label }));

export const toWorkspaceRaffle = (r: RaffleRow, ctx: RaffleContext): WorkspaceRaffle => ({
  ...toWorkspaceRaffleItem(r, ctx),
  description: r.description,
  allowAutoEntry: r.allowAutoEntry,
  requirements: publicRequirements(r) as WorkspaceRaffle['requirements'],
  drawCommitment: r.drawCommitment,
  drawAlgorithm: r.drawAlgorithm as WorkspaceRaffle['drawAlgorithm'],
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export const toPublicRaffleItem = (r: RaffleRow, ctx: RaffleContext): PublicRaffleItem => ({
  id: r.id,
  slug: r.slug,
  title: r.title,
  mechanic: r.mechanic as PublicRaffleItem['mechanic'],
  allocationType: r.allocationType as PublicRaffleItem['allocationType'],
  status: r.status as PublicRaffleItem['status'],
  spots: r.spots,
  startsAt: isoOrAbsent(r.startsAt),
  endsAt: isoOrAbsent(r.endsAt),
  allowAutoEntry: r.allowAutoEntry,
  description: textOrAbsent(r.description),
  chain: textOrAbsent(r.chain),
  canonicalProject: ctx.canonicalProject
    ? {
        id: ctx.canonicalProject.id,
        slug: ctx.canonicalProject.slug,
        name: ctx.canonicalProject.name,
        logoUrl: textOrAbsent(ctx.canonicalProject.logoUrl),
      }
    : undefined,
  workspace: {
    id: ctx.workspace.id,
    slug: ctx.workspace.slug,
    name: ctx.workspace.name,
    logoUrl: textOrAbsent(ctx.workspace.logoUrl),
  },
});

export const toPublicRaffle = (r: RaffleRow, ctx: RaffleContext): PublicRaffle => ({
  ...toPublicRaffleItem(r, ctx),
  visibility: r.visibility as PublicRaffle['visibility'],
  requirements: publicRequirements(r) as PublicRaffle['requirements'],
  drawCommitment: textOrAbsent(r.drawCommitment),
  drawAlgorithm: textOrAbsent(r.drawAlgorithm) as PublicRaffle['drawAlgorithm'],
  publishedAt: isoOrAbsent(r.publishedAt),
  openedAt: isoOrAbsent(r.openedAt),
  closedAt: isoOrAbsent(r.closedAt),
  beaconRound: r.beaconRound ?? undefined,
  finalizedAt: isoOrAbsent(r.finalizedAt),
});

/** The two list representations stored on the row. */
export const renderRaffleColumns = (r: RaffleRow, ctx: RaffleContext) => ({
  workspaceItemJson: JSON.stringify(toWorkspaceRaffleItem(r, ctx)),
  publicItemJson: JSON.stringify(toPublicRaffleItem(r, ctx)),
});
