import type { WorkspaceRole } from '@raffle/contracts';
import { findWorkspaceRole, isIdOf, lockWorkspaceRow, type DbOrTx, type Tx } from '@raffle/db';
import { DomainError } from '../errors.js';
import type { Principal } from '../principal.js';

/** `view`: any member. `manage`: owners and admins (keys, webhooks, projects, raffles, members). */
export type WorkspaceAccess = 'view' | 'manage';

export const isWorkspaceManager = (role: WorkspaceRole) => role === 'owner' || role === 'admin';

const refusal = (access: WorkspaceAccess) =>
  new DomainError(
    'FORBIDDEN',
    access === 'view' ? 'only members of this workspace may see it' : 'only owners and admins of this workspace may change it',
  );

/**
 * The caller's role in the workspace, or 403. An unknown workspace answers exactly like one the
 * caller is not a member of, so workspace ids cannot be probed for existence.
 */
export async function requireWorkspaceRole(
  db: DbOrTx,
  args: { workspaceId: string; userId: string; access: WorkspaceAccess },
): Promise<WorkspaceRole> {
  const role = isIdOf('workspace', args.workspaceId) ? await findWorkspaceRole(db, args.workspaceId, args.userId) : null;
  return roleAllowing(role, args.access);
}

/** The rule of requireWorkspaceRole, on a role the caller already read (null: not a member): the role, or 403. */
export function roleAllowing(role: WorkspaceRole | null, access: WorkspaceAccess): WorkspaceRole {
  if (!role || (access === 'manage' && !isWorkspaceManager(role))) throw refusal(access);
  return role;
}

/**
 * As requireWorkspaceAccess, for rules that depend on the actor's role: a user's role, or 403.
 * The system acts as an owner would.
 */
export async function requireActorRole(db: DbOrTx, actor: Principal, workspaceId: string, access: WorkspaceAccess): Promise<WorkspaceRole> {
  if (actor.kind === 'system') return 'owner';
  return requireWorkspaceRole(db, { workspaceId, userId: actor.userId, access });
}

/**
 * Locks the workspace row, then checks the actor's role. Membership changes take this lock so
 * that two of them cannot each see "another owner remains" and together remove every owner.
 */
export async function lockWorkspaceAs(tx: Tx, actor: Principal, workspaceId: string, access: WorkspaceAccess): Promise<WorkspaceRole> {
  if (isIdOf('workspace', workspaceId)) await lockWorkspaceRow(tx, workspaceId);
  return requireActorRole(tx, actor, workspaceId, access);
}
