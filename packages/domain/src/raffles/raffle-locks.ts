import type { WorkspaceRole } from '@raffle/contracts';
import { lockRaffleRow, lockRaffleWithContext, type DbOrTx, type LockedRaffle, type schema } from '@raffle/db';
import { DomainError } from '../errors.js';
import { requireWorkspaceAccess, type Principal } from '../principal.js';
import { roleAllowing } from '../workspaces/access.js';

export type RaffleRecord = typeof schema.raffles.$inferSelect;

/**
 * Which raffle to lock. `actorRole` is the actor's role in `workspaceId` as the caller read it
 * earlier in the same request (the dashboard's access hook): the rule is applied to it rather than
 * reading it again. It is only taken with a workspace named, which the lock is then scoped to.
 */
export type RaffleLockTarget = { raffleId: string; workspaceId?: string; actorRole?: WorkspaceRole };

const notFound = (raffleId: string) => new DomainError('RAFFLE_NOT_FOUND', `no raffle ${raffleId} in this workspace`);

/**
 * Reads a raffle and locks it for the rest of the transaction: every transition of one raffle
 * runs one at a time, whichever instance or scheduler starts it.
 */
export async function lockRaffle(tx: DbOrTx, args: { raffleId: string; workspaceId?: string }): Promise<RaffleRecord> {
  const row = await lockRaffleRow(tx, args);
  if (!row) throw notFound(args.raffleId);
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

/**
 * As lockRaffleAs, for a transition: the raffle comes locked with its workspace and canonical
 * project (one statement), which the transition renders it with, and the actor's role is read at
 * most once (not at all when the caller passes the role it read in this request).
 */
export async function lockRaffleWithContextAs(tx: DbOrTx, actor: Principal, args: RaffleLockTarget): Promise<LockedRaffle> {
  if (args.workspaceId !== undefined) {
    if (actor.kind === 'user' && args.actorRole !== undefined) roleAllowing(args.actorRole, 'manage');
    else await requireWorkspaceAccess(tx, actor, args.workspaceId, 'manage');
    return relockRaffle(tx, args);
  }
  const locked = await relockRaffle(tx, args);
  await requireRaffleManager(tx, actor, locked.raffle);
  return locked;
}

/**
 * The raffle locked with its context, with no check of the actor: for the second transaction of a
 * transition whose actor was checked in its first, earlier in the same call (a draw that fetched
 * its beacon round in between).
 */
export async function relockRaffle(tx: DbOrTx, args: { raffleId: string; workspaceId?: string }): Promise<LockedRaffle> {
  const locked = await lockRaffleWithContext(tx, { raffleId: args.raffleId, ...(args.workspaceId === undefined ? {} : { workspaceId: args.workspaceId }) });
  if (!locked) throw notFound(args.raffleId);
  return locked;
}
