import { findWorkspaceRole, isIdOf, type ApiKeyOwner, type DbOrTx } from '@raffle/db';
import { DomainError } from '../errors.js';
import type { Principal } from '../principal.js';
import { isWorkspaceManager } from '../workspaces/access.js';

/** Whose keys are acted on, and who is acting. */
export type ApiKeyScope = { actor: Principal; owner: ApiKeyOwner };

/**
 * The acting user's id when the principal may manage the owner's keys, or 403: personal keys by
 * their user only, a workspace's keys by its owners and admins only. An unknown workspace answers
 * the same 403 as one the caller is not a member of, so ids cannot be probed for existence. The
 * system is refused too: a key is a person's credential and records the user who created it.
 */
export async function requireApiKeyManager(db: DbOrTx, { actor, owner }: ApiKeyScope): Promise<string> {
  if (actor.kind !== 'user') throw new DomainError('FORBIDDEN', 'API keys are managed by users only');
  if (owner.kind === 'personal') {
    if (owner.userId !== actor.userId) throw new DomainError('FORBIDDEN', 'personal API keys are managed by their user only');
    return actor.userId;
  }
  const role = isIdOf('workspace', owner.workspaceId) ? await findWorkspaceRole(db, owner.workspaceId, actor.userId) : null;
  if (!role || !isWorkspaceManager(role)) throw new DomainError('FORBIDDEN', 'only owners and admins of this workspace manage its API keys');
  return actor.userId;
}
