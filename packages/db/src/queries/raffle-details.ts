import { and, eq } from 'drizzle-orm';
import type { PublicRaffle, WorkspaceRaffle } from '@raffle/contracts';
import type { DbOrTx } from '../client.js';
import { toPublicRaffle, toWorkspaceRaffle } from '../render/raffle.js';
import { raffles } from '../schema/raffles.js';
import { loadRaffleContext } from '../writes/raffles.js';

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
