import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import type { WorkspaceRow } from '../render/raffle.js';
import { workspaceMembers, workspaces } from '../schema/workspaces.js';
import { afterKey, keysetReadSize } from './keyset.js';

export async function findWorkspace(db: DbOrTx, workspaceId: string): Promise<WorkspaceRow | null> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  return row ?? null;
}

/** A page of the user's workspaces with their role in each, in id (creation) order. */
export async function pageUserWorkspaces(
  db: DbOrTx,
  args: { userId: string; after: string | null; limit: number },
): Promise<{ workspace: WorkspaceRow; role: string }[]> {
  return db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, args.userId), afterKey(workspaceMembers.workspaceId, args.after)))
    .orderBy(workspaceMembers.workspaceId)
    .limit(keysetReadSize(args.limit));
}
