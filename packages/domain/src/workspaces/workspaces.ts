import { DASHBOARD_PAGE_SIZE, type CreateWorkspaceBody, type DashboardWorkspace, type UpdateWorkspaceBody, type WorkspaceRole } from '@raffle/contracts';
import {
  addWorkspaceMember,
  findWorkspace,
  insertWorkspace,
  pageUserWorkspaces,
  rerenderWorkspaceRaffles,
  updateWorkspaceRow,
  type Db,
  type WorkspaceRow,
} from '@raffle/db';
import { DomainError } from '../errors.js';
import { cursorBinding } from '../pagination/binding.js';
import { isIdKey } from '../pagination/keys.js';
import { readPageRequest, toPage, type Page, type PageRequest } from '../pagination/page.js';
import type { Principal } from '../principal.js';
import { isUniqueViolation } from '../unique-violation.js';
import { lockWorkspaceAs, requireActorRole } from './access.js';
import { assertSlug } from './slug.js';

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

/** A new workspace whose only member, its owner, is the acting user (the system owns no workspace). */
export async function createWorkspace(db: Db, args: { actor: Principal; body: CreateWorkspaceBody; now?: Date }): Promise<DashboardWorkspace> {
  const { actor } = args;
  if (actor.kind !== 'user') throw new DomainError('FORBIDDEN', 'a workspace is created by the user who will own it');
  assertSlug(args.body.slug);
  try {
    return await db.transaction(async (tx) => {
      const workspace = await insertWorkspace(tx, { ...args.body, createdAt: args.now });
      await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: actor.userId, role: 'owner' });
      return toDashboardWorkspace(workspace, 'owner');
    });
  } catch (error) {
    if (isUniqueViolation(error, 'workspaces_slug_unique')) throw slugTaken(args.body.slug);
    throw error;
  }
}

/** The workspaces the user belongs to, with the user's role, in id (creation) order. */
export async function listMyWorkspaces(db: Db, args: { userId: string } & PageRequest): Promise<Page<DashboardWorkspace>> {
  const page = readPageRequest(args, { binding: cursorBinding('dashboard:workspaces', args.userId), rule: DASHBOARD_PAGE_SIZE, isKey: isIdKey('workspace') });
  const rows = await pageUserWorkspaces(db, { userId: args.userId, after: page.after?.[0] ?? null, limit: page.limit });
  return toPage(rows, page, (r) => [r.workspace.id], (r) => toDashboardWorkspace(r.workspace, r.role as WorkspaceRole));
}

export async function getWorkspace(db: Db, args: { workspaceId: string; actor: Principal }): Promise<DashboardWorkspace> {
  const role = await requireActorRole(db, args.actor, args.workspaceId, 'view');
  const workspace = await findWorkspace(db, args.workspaceId);
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
  args: { workspaceId: string; actor: Principal; body: UpdateWorkspaceBody; now?: Date },
): Promise<DashboardWorkspace> {
  if (args.body.slug !== undefined) assertSlug(args.body.slug);
  try {
    return await db.transaction(async (tx) => {
      const role = await lockWorkspaceAs(tx, args.actor, args.workspaceId, 'manage');
      const current = await findWorkspace(tx, args.workspaceId);
      if (!current) throw new DomainError('FORBIDDEN', 'only owners and admins of this workspace may change it');
      const changes = {
        slug: args.body.slug ?? current.slug,
        name: args.body.name ?? current.name,
        logoUrl: args.body.logoUrl === undefined ? current.logoUrl : args.body.logoUrl,
      };
      if (changes.slug === current.slug && changes.name === current.name && changes.logoUrl === current.logoUrl) {
        return toDashboardWorkspace(current, role);
      }
      const updated = await updateWorkspaceRow(tx, args.workspaceId, { ...changes, updatedAt: args.now ?? new Date() });
      await rerenderWorkspaceRaffles(tx, args.workspaceId);
      return toDashboardWorkspace(updated!, role);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'workspaces_slug_unique')) throw slugTaken(args.body.slug!);
    throw error;
  }
}
