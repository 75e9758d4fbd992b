import type { WorkspaceRole } from '@raffle/contracts';
import { findWorkspaceRole, isIdOf, schema, type DbOrTx, type Tx } from '@raffle/db';
import { eq } from 'drizzle-orm';
import { DomainError } from '../errors.js';

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
  if (!role || (args.access === 'manage' && !isWorkspaceManager(role))) throw refusal(args.access);
  return role;
}

/**
 * Locks the workspace row, then checks the caller's role. Membership changes take this lock so
 * that two of them cannot each see "another owner remains" and together remove every owner.
 * `no key update` does not block the key-share locks that inserts referencing the workspace take.
 */
export async function lockWorkspaceAs(tx: Tx, args: { workspaceId: string; userId: string; access: WorkspaceAccess }): Promise<WorkspaceRole> {
  if (isIdOf('workspace', args.workspaceId)) {
    await tx
      .select({ id: schema.workspaces.id })
      .from(schema.workspaces)
      .where(eq(schema.workspaces.id, args.workspaceId))
      .for('no key update');
  }
  return requireWorkspaceRole(tx, args);
}
