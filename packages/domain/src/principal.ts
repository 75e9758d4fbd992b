import type { DbOrTx } from '@raffle/db';
import { requireWorkspaceRole, type WorkspaceAccess } from './workspaces/access.js';

/**
 * Who is acting. Every mutating domain function takes one and checks, inside its own transaction,
 * that it may: a route's access hook is a first, cheap refusal, never the only one.
 *
 * - `user`: a signed-in person (a session token) or the owner of a personal API key.
 * - `system`: the platform itself — the scheduler's timed transitions, the demo and benchmark
 *   seeds. Only trusted code builds one; no request can.
 */
export type Principal = { kind: 'user'; userId: string } | { kind: 'system'; process: 'scheduler' | 'seed' };

export const userPrincipal = (userId: string): Principal => ({ kind: 'user', userId });
export const SCHEDULER: Principal = { kind: 'system', process: 'scheduler' };
export const SEED: Principal = { kind: 'system', process: 'seed' };

/**
 * The acting principal may act on the workspace with this access, or 403 (an unknown workspace
 * answers exactly like one the user is not a member of). The system may always.
 */
export async function requireWorkspaceAccess(db: DbOrTx, actor: Principal, workspaceId: string, access: WorkspaceAccess): Promise<void> {
  if (actor.kind === 'system') return;
  await requireWorkspaceRole(db, { workspaceId, userId: actor.userId, access });
}
