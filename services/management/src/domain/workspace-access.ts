import { findWorkspaceRole, isIdOf, type Db } from '@raffle/db';
import { managementError } from '../errors.js';

const KEY_MANAGERS = new Set(['owner', 'admin']);

/**
 * Only a workspace's owners and admins manage its keys. An unknown workspace answers the same
 * 403 as one the caller is not a member of, so ids cannot be probed for existence.
 */
export async function assertCanManageWorkspaceKeys(db: Db, args: { workspaceId: string; userId: string }): Promise<void> {
  const role = isIdOf('workspace', args.workspaceId) ? await findWorkspaceRole(db, args.workspaceId, args.userId) : null;
  if (!role || !KEY_MANAGERS.has(role)) throw managementError('FORBIDDEN', 'only owners and admins of this workspace manage its API keys');
}
