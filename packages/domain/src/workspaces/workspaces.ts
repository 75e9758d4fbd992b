import type { CreateWorkspaceBody, DashboardWorkspace, UpdateWorkspaceBody, WorkspaceRole } from '@raffle/contracts';
import { addWorkspaceMember, insertWorkspace, schema, type Db, type WorkspaceRow } from '@raffle/db';
import { and, eq, gt } from 'drizzle-orm';
import { DomainError } from '../errors.js';
import { lockWorkspaceAs, requireWorkspaceRole } from './access.js';
import { readPageRequest, toPage, type Page, type PageRequest } from './keyset-page.js';
import { rerenderRaffles } from './rerender-raffles.js';
import { assertSlug } from './slug.js';
import { isUniqueViolation } from '../unique-violation.js';

const { workspaces, workspaceMembers } = schema;

const slugTaken = (slug: string) => new DomainError('SLUG_TAKEN', `the workspace slug ${JSON.stringify(slug)} is taken`);

export const toDashboardWorkspace = (w: WorkspaceRow, role: WorkspaceRole): DashboardWorkspace => ({
  id: w.id,
  slug: w.slug,
  name: w.name,
  logoUrl: w.logoUrl,
  role,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});

/** A new workspace whose only member, its owner, is the caller. */
export async function createWorkspace(db: Db, args: { userId: string; body: CreateWorkspaceBody; now?: Date }): Promise<DashboardWorkspace> {
  assertSlug(args.body.slug);
  try {
    return await db.transaction(async (tx) => {
      const workspace = await insertWorkspace(tx, { ...args.body, createdAt: args.now });
      await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: args.userId, role: 'owner' });
      return toDashboardWorkspace(workspace, 'owner');
    });
  } catch (error) {
    if (isUniqueViolation(error, 'workspaces_slug_unique')) throw slugTaken(args.body.slug);
    throw error;
  }
}

/** The workspaces the caller belongs to, with the caller's role, in id (creation) order. */
export async function listMyWorkspaces(db: Db, args: { userId: string } & PageRequest): Promise<Page<DashboardWorkspace>> {
  const binding = `dashboard:workspaces:${args.userId}`;
  const { after, limit } = readPageRequest(binding, 'workspace', args);
  const rows = await db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, args.userId), after === null ? undefined : gt(workspaceMembers.workspaceId, after)))
    .orderBy(workspaceMembers.workspaceId)
    .limit(limit + 1);
  return toPage(rows, {
    limit,
    binding,
    cursors: args.cursors,
    idOf: (r) => r.workspace.id,
    render: (r) => toDashboardWorkspace(r.workspace, r.role as WorkspaceRole),
  });
}

export async function getWorkspace(db: Db, args: { workspaceId: string; userId: string }): Promise<DashboardWorkspace> {
  const role = await requireWorkspaceRole(db, { ...args, access: 'view' });
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, args.workspaceId));
  // Deleted between the role check and this read: answer as for any workspace the caller cannot see.
  if (!workspace) throw new DomainError('FORBIDDEN', 'only members of this workspace may see it');
  return toDashboardWorkspace(workspace, role);
}

/**
 * Renames, re-slugs or re-logos a workspace (owners and admins). Its raffles embed the workspace
 * in their stored public JSON, so they are re-rendered in the same transaction.
 */
export async function updateWorkspace(
  db: Db,
  args: { workspaceId: string; userId: string; body: UpdateWorkspaceBody; now?: Date },
): Promise<DashboardWorkspace> {
  if (args.body.slug !== undefined) assertSlug(args.body.slug);
  try {
    return await db.transaction(async (tx) => {
      const role = await lockWorkspaceAs(tx, { workspaceId: args.workspaceId, userId: args.userId, access: 'manage' });
      const [current] = await tx.select().from(workspaces).where(eq(workspaces.id, args.workspaceId));
      if (!current) throw new DomainError('FORBIDDEN', 'only owners and admins of this workspace may change it');
      const changes = {
        slug: args.body.slug ?? current.slug,
        name: args.body.name ?? current.name,
        logoUrl: args.body.logoUrl === undefined ? current.logoUrl : args.body.logoUrl,
      };
      if (changes.slug === current.slug && changes.name === current.name && changes.logoUrl === current.logoUrl) {
        return toDashboardWorkspace(current, role);
      }
      const [updated] = await tx
        .update(workspaces)
        .set({ ...changes, updatedAt: args.now ?? new Date() })
        .where(eq(workspaces.id, args.workspaceId))
        .returning();
      await rerenderRaffles(tx, eq(schema.raffles.workspaceId, args.workspaceId));
      return toDashboardWorkspace(updated!, role);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'workspaces_slug_unique')) throw slugTaken(args.body.slug!);
    throw error;
  }
}
