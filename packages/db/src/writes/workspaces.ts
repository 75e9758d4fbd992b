import type { WorkspaceRole } from '@raffle/contracts';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.js';
import { newId } from '../ids.js';
import type { WorkspaceRow } from '../render/raffle.js';
import { workspaceMembers, workspaces } from '../schema/workspaces.js';

export type NewWorkspace = { id?: string; slug: string; name: string; logoUrl?: string | null; createdAt?: Date };

export async function insertWorkspace(tx: DbOrTx, input: NewWorkspace) {
  const now = input.createdAt ?? new Date();
  const [workspace] = await tx
    .insert(workspaces)
    .values({
      id: input.id ?? newId('workspace', now.getTime()),
      slug: input.slug,
      name: input.name,
      logoUrl: input.logoUrl ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return workspace!;
}

export async function addWorkspaceMember(tx: DbOrTx, input: { workspaceId: string; userId: string; role: WorkspaceRole }) {
  await tx.insert(workspaceMembers).values(input).onConflictDoUpdate({
    target: [workspaceMembers.workspaceId, workspaceMembers.userId],
    set: { role: input.role },
  });
}

/**
 * Locks the workspace row until the transaction ends. `no key update` does not block the
 * key-share locks that inserts referencing the workspace take.
 */
export async function lockWorkspaceRow(tx: Tx, workspaceId: string): Promise<void> {
  await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('no key update');
}

export async function updateWorkspaceRow(
  tx: DbOrTx,
  workspaceId: string,
  changes: { slug: string; name: string; logoUrl: string | null; updatedAt: Date },
): Promise<WorkspaceRow | null> {
  const [row] = await tx.update(workspaces).set(changes).where(eq(workspaces.id, workspaceId)).returning();
  return row ?? null;
}

const membership = (args: { workspaceId: string; userId: string }) =>
  and(eq(workspaceMembers.workspaceId, args.workspaceId), eq(workspaceMembers.userId, args.userId));

export async function setWorkspaceMemberRole(tx: DbOrTx, args: { workspaceId: string; userId: string; role: WorkspaceRole }): Promise<void> {
  await tx.update(workspaceMembers).set({ role: args.role }).where(membership(args));
}

export async function deleteWorkspaceMember(tx: DbOrTx, args: { workspaceId: string; userId: string }): Promise<void> {
  await tx.delete(workspaceMembers).where(membership(args));
}
