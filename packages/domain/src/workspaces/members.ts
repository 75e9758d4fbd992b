import { DASHBOARD_PAGE_SIZE, type AddWorkspaceMemberBody, type WorkspaceMember, type WorkspaceRole } from '@raffle/contracts';
import {
  addWorkspaceMember,
  countWorkspaceOwners,
  deleteWorkspaceMember,
  findWorkspaceMember,
  findWorkspaceRole,
  isIdOf,
  pageWorkspaceMembers,
  setWorkspaceMemberRole,
  userExists,
  type Db,
  type DbOrTx,
  type WorkspaceMemberRow,
} from '@raffle/db';
import { DomainError } from '../errors.js';
import { cursorBinding } from '../pagination/binding.js';
import { isIdKey } from '../pagination/keys.js';
import { readPageRequest, toPage, type Page, type PageRequest } from '../pagination/page.js';
import type { Principal } from '../principal.js';
import { isWorkspaceManager, lockWorkspaceAs, requireActorRole } from './access.js';

const toWorkspaceMember = (m: WorkspaceMemberRow): WorkspaceMember => ({
  userId: m.userId,
  handle: m.handle,
  displayName: m.displayName,
  avatarUrl: m.avatarUrl,
  role: m.role as WorkspaceRole,
  joinedAt: m.joinedAt.toISOString(),
});

async function findMember(db: DbOrTx, workspaceId: string, userId: string): Promise<WorkspaceMember> {
  const row = await findWorkspaceMember(db, { workspaceId, userId });
  if (!row) throw new DomainError('MEMBER_NOT_FOUND', `user ${userId} is not a member of this workspace`);
  return toWorkspaceMember(row);
}

const onlyOwnersTouchOwners = () => new DomainError('FORBIDDEN', "only an owner may grant the owner role or change an owner's membership");
const lastOwner = () => new DomainError('LAST_OWNER', 'a workspace must keep at least one owner; make someone else an owner first');

/** The members of a workspace (any member may look), in user id order. */
export async function listMembers(db: Db, args: { workspaceId: string; actor: Principal } & PageRequest): Promise<Page<WorkspaceMember>> {
  await requireActorRole(db, args.actor, args.workspaceId, 'view');
  const page = readPageRequest(args, { binding: cursorBinding('dashboard:members', args.workspaceId), rule: DASHBOARD_PAGE_SIZE, isKey: isIdKey('user') });
  const rows = await pageWorkspaceMembers(db, { workspaceId: args.workspaceId, after: page.after?.[0] ?? null, limit: page.limit });
  return toPage(rows, page, (m) => [m.userId], toWorkspaceMember);
}

/** Adds an existing user (owners and admins; only an owner may add another owner). */
export async function addMember(db: Db, args: { workspaceId: string; actor: Principal; body: AddWorkspaceMemberBody }): Promise<WorkspaceMember> {
  const { userId, role } = args.body;
  return db.transaction(async (tx) => {
    const actorRole = await lockWorkspaceAs(tx, args.actor, args.workspaceId, 'manage');
    if (role === 'owner' && actorRole !== 'owner') throw onlyOwnersTouchOwners();
    if (!isIdOf('user', userId) || !(await userExists(tx, userId))) throw new DomainError('USER_NOT_FOUND', `no user ${userId}`);
    if (await findWorkspaceRole(tx, args.workspaceId, userId)) {
      throw new DomainError('ALREADY_MEMBER', `user ${userId} is already a member; change their role with PATCH`);
    }
    await addWorkspaceMember(tx, { workspaceId: args.workspaceId, userId, role });
    return findMember(tx, args.workspaceId, userId);
  });
}

/** Changes a member's role (owners and admins; only an owner may grant 'owner' or change an owner). */
export async function updateMemberRole(
  db: Db,
  args: { workspaceId: string; actor: Principal; memberId: string; role: WorkspaceRole },
): Promise<WorkspaceMember> {
  return db.transaction(async (tx) => {
    const actorRole = await lockWorkspaceAs(tx, args.actor, args.workspaceId, 'manage');
    const current = await findMember(tx, args.workspaceId, args.memberId);
    if (current.role === args.role) return current;
    if ((current.role === 'owner' || args.role === 'owner') && actorRole !== 'owner') throw onlyOwnersTouchOwners();
    if (current.role === 'owner' && (await countWorkspaceOwners(tx, args.workspaceId)) <= 1) throw lastOwner();
    await setWorkspaceMemberRole(tx, { workspaceId: args.workspaceId, userId: args.memberId, role: args.role });
    return { ...current, role: args.role };
  });
}

/**
 * Removes a member: owners and admins remove others (only an owner removes an owner), and any
 * member may leave. The last owner can do neither.
 */
export async function removeMember(db: Db, args: { workspaceId: string; actor: Principal; memberId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const actorRole = await lockWorkspaceAs(tx, args.actor, args.workspaceId, 'view');
    const leaving = args.actor.kind === 'user' && args.memberId === args.actor.userId;
    if (!leaving && !isWorkspaceManager(actorRole)) {
      throw new DomainError('FORBIDDEN', 'only owners and admins of this workspace may remove other members');
    }
    const current = await findMember(tx, args.workspaceId, args.memberId);
    if (current.role === 'owner' && actorRole !== 'owner') throw onlyOwnersTouchOwners();
    if (current.role === 'owner' && (await countWorkspaceOwners(tx, args.workspaceId)) <= 1) throw lastOwner();
    await deleteWorkspaceMember(tx, { workspaceId: args.workspaceId, userId: args.memberId });
  });
}
