import type { WorkspaceRole } from '@raffle/contracts';
import { and, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { users } from '../schema/users.js';
import { workspaceMembers } from '../schema/workspaces.js';
import { afterKey, keysetReadSize } from './keyset.js';

/** A member as the dashboard lists them: the membership and the user's public profile. */
export type WorkspaceMemberRow = { userId: string; handle: string; displayName: string | null; avatarUrl: string | null; role: string; joinedAt: Date };

const memberColumns = {
  userId: workspaceMembers.userId,
  handle: users.handle,
  displayName: users.displayName,
  avatarUrl: users.avatarUrl,
  role: workspaceMembers.role,
  joinedAt: workspaceMembers.createdAt,
};

const inWorkspace = (workspaceId: string) => eq(workspaceMembers.workspaceId, workspaceId);

export async function findWorkspaceMember(db: DbOrTx, args: { workspaceId: string; userId: string }): Promise<WorkspaceMemberRow | null> {
  const [row] = await db
    .select(memberColumns)
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(inWorkspace(args.workspaceId), eq(workspaceMembers.userId, args.userId)));
  return row ?? null;
}

export async function countWorkspaceOwners(db: DbOrTx, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ owners: count() })
    .from(workspaceMembers)
    .where(and(inWorkspace(workspaceId), eq(workspaceMembers.role, 'owner')));
  return row?.owners ?? 0;
}

/** A page of the workspace's members, in user id order. */
export async function pageWorkspaceMembers(
  db: DbOrTx,
  args: { workspaceId: string; after: string | null; limit: number },
): Promise<WorkspaceMemberRow[]> {
  return db
    .select(memberColumns)
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(inWorkspace(args.workspaceId), afterKey(workspaceMembers.userId, args.after)))
    .orderBy(workspaceMembers.userId)
    .limit(keysetReadSize(args.limit));
}

/** The user's role in the workspace; null when they are not a member (or either is unknown). */
export async function findWorkspaceRole(db: DbOrTx, workspaceId: string, userId: string): Promise<WorkspaceRole | null> {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return (row?.role as WorkspaceRole | undefined) ?? null;
}
