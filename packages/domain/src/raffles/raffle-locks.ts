import { lockRaffleRow, type DbOrTx, type schema } from '@raffle/db';
import { DomainError } from '../errors.js';
import { requireWorkspaceAccess, type Principal } from '../principal.js';

export type RaffleRecord = typeof schema.raffles.$inferSelect;

/**
 * Reads a raffle and locks it for the rest of the transaction: every transition of one raffle
 * runs one at a time, whichever instance or scheduler starts it.
 */
export async function lockRaffle(tx: DbOrTx, args: { raffleId: string; workspaceId?: string }): Promise<RaffleRecord> {
  const row = await lockRaffleRow(tx, args);
  if (!row) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle ${args.raffleId} in this workspace`);
  return row;
}

/** Only the workspace's owners and admins (or the system) change its raffles. */
export const requireRaffleManager = (tx: DbOrTx, actor: Principal, raffle: { workspaceId: string }) =>
  requireWorkspaceAccess(tx, actor, raffle.workspaceId, 'manage');

/**
 * Checks that the actor may manage the raffle, and locks it. When the caller names the workspace
 * (the dashboard's routes do), the check comes first, so an outsider is refused before anything
 * of the workspace is read; otherwise the raffle's own workspace is checked once it is locked.
 */
export async function lockRaffleAs(tx: DbOrTx, actor: Principal, args: { raffleId: string; workspaceId?: string }): Promise<RaffleRecord> {
  if (args.workspaceId !== undefined) {
    await requireWorkspaceAccess(tx, actor, args.workspaceId, 'manage');
    return lockRaffle(tx, args);
  }
  const raffle = await lockRaffle(tx, args);
  await requireRaffleManager(tx, actor, raffle);
  return raffle;
}
