import { and, eq } from 'drizzle-orm';
import type { PublicRaffle, WorkspaceRaffle } from '@raffle/contracts';
import type { DbOrTx } from '../client.js';
import { toPublicRaffle, toWorkspaceRaffle, type RaffleContext, type RaffleRow } from '../render/raffle.js';
import { projects } from '../schema/projects.js';
import { raffles } from '../schema/raffles.js';
import { workspaces } from '../schema/workspaces.js';

/** What rendering the raffle needs beyond its row: its workspace, and its canonical project if it names one. */
export async function loadRaffleContext(tx: DbOrTx, row: Pick<RaffleRow, 'workspaceId' | 'canonicalProjectId'>): Promise<RaffleContext> {
  const [workspace] = await tx.select().from(workspaces).where(eq(workspaces.id, row.workspaceId));
  if (!workspace) throw new Error(`workspace ${row.workspaceId} does not exist`);
  let canonicalProject: RaffleContext['canonicalProject'] = null;
  if (row.canonicalProjectId) {
    const [project] = await tx
      .select({ id: projects.id, slug: projects.slug, name: projects.name, logoUrl: projects.logoUrl })
      .from(projects)
      .where(eq(projects.id, row.canonicalProjectId));
    canonicalProject = project ?? null;
  }
  return { workspace, canonicalProject };
}

export async function findWorkspaceRaffle(
  tx: DbOrTx,
  args: { workspaceId: string; raffleId: string },
): Promise<WorkspaceRaffle | null> {
  const [row] = await tx
    .select()
    .from(raffles)
    .where(and(eq(raffles.id, args.raffleId), eq(raffles.workspaceId, args.workspaceId)));
  if (!row) return null;
  return toWorkspaceRaffle(row, await loadRaffleContext(tx, row));
}

export async function findPublicRaffleById(tx: DbOrTx, raffleId: string): Promise<PublicRaffle | null> {
  const [row] = await tx.select().from(raffles).where(eq(raffles.id, raffleId));
  if (!row) return null;
  return toPublicRaffle(row, await loadRaffleContext(tx, row));
}
