import type { WorkspaceRole } from '@raffle/contracts';
import type { DbOrTx } from '../client.js';
import { newId } from '../ids.js';
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
