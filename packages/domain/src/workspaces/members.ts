import type { AddWorkspaceMemberBody, WorkspaceMember, WorkspaceRole } from '@raffle/contracts';
import { addWorkspaceMember, findWorkspaceRole, isIdOf, schema, type Db, type DbOrTx, type Tx } from '@raffle/db';
import { and, count, eq, gt } from 'drizzle-orm';
import { DomainError } from '../errors.js';
import { isWorkspaceManager, lockWorkspaceAs, requireWorkspaceRole } from './access.js';
import { readPageRequest, toPage, type Page, type PageRequest } from './keyset-page.js';

const { users, workspaceMembers } = schema;

const memberColumns = {
  userId: workspaceMembers.userId,
  handle: users.handle,
  displayName: users.displayName,
  avatarUrl: users.avatarUrl,
  role: workspaceMembers.role,
  joinedAt: workspaceMembers.createdAt,
};

type MemberRow = { userId: string; handle: string; displayName: string | null; avatarUrl: string | null; role: string; joinedAt: Date };

const toWorkspaceMember = (m: MemberRow): WorkspaceMember => ({
  userId: m.userId,
  handle: m.handle,
  displayName: m.displayName,
  avatarUrl: m.avatarUrl,
  role: m.role as WorkspaceRole,
  joinedAt: m.joinedAt.toISOString(),
});

const inWorkspace = (workspaceId: string) => eq(workspaceMembers.workspaceId, workspaceId);

async function findMember(db: DbOrTx, workspaceId: string, userId: string): Promise<WorkspaceMember> {
  const [row] = await db
    .select(memberColumns)
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(inWorkspace(workspaceId), eq(workspaceMembers.userId, userId)));
  if (!row) throw new DomainError('MEMBER_NOT_FOUND', `user ${userId} is not a member of this workspace`);
  return toWorkspaceMember(row);
}

async function countOwners(tx: Tx, workspaceId: string): Promise<number> {
  const [row] = await tx
    .select({ owners: count() })
    .from(workspaceMembers)
    .where(and(inWorkspace(workspaceId), eq(workspaceMembers.role, 'owner')));
  return row?.owners ?? 0;
}

const onlyOwnersTouchOwners = () => new DomainError('FORBIDDEN', "only an owner may grant the owner role or change an owner's membership");
const lastOwner = () => new DomainError('LAST_OWNER', 'a workspace must keep at least one owner; make someone else an owner first');

/** The members of a workspace (any member may look), in user id order. */
export async function listMembers(db: Db, args: { workspaceId: string; userId: string } & PageRequest): Promise<Page<WorkspaceMember>> {
  await requireWorkspaceRole(db, { workspaceId: args.workspaceId, userId: args.userId, access: 'view' });
  const binding = `dashboard:members:${args.workspaceId}`;
  const { after, limit } = readPageRequest(binding, 'user', args);
  const rows = await db
    .select(memberColumns)
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(inWorkspace(args.workspaceId), after === null ? undefined : gt(workspaceMembers.userId, after)))
    .orderBy(workspaceMembers.userId)
    .limit(limit + 1);
  return toPage(rows, { limit, binding, cursors: args.cursors, idOf: (m) => m.userId, render: toWorkspaceMember });
}

/** Adds an existing user (owners and admins; only an owner may add another owner). */
export async function addMember(db: Db, args: { workspaceId: string; actorId: string; body: AddWorkspaceMemberBody }): Promise<WorkspaceMember> {
  const { userId, role } = args.body;
  return db.transaction(async (tx) => {
    const actorRole = await lockWorkspaceAs(tx, { workspaceId: args.workspaceId, userId: args.actorId, access: 'manage' });
    if (role === 'owner' && actorRole !== 'owner') throw onlyOwnersTouchOwners();
    const [user] = isIdOf('user', userId) ? await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)) : [];
    if (!user) throw new DomainError('USER_NOT_FOUND', `no user ${userId}`);
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
  args: { workspaceId: string; actorId: string; memberId: string; role: WorkspaceRole },
): Promise<WorkspaceMember> {
  return db.transaction(async (tx) => {
    const actorRole = await lockWorkspaceAs(tx, { workspaceId: args.workspaceId, userId: args.actorId, access: 'manage' });
    const current = await findMember(tx, args.workspaceId, args.memberId);
    if (current.role === args.role) return current;
    if ((current.role === 'owner' || args.role === 'owner') && actorRole !== 'owner') throw onlyOwnersTouchOwners();
    if (current.role === 'owner' && (await countOwners(tx, args.workspaceId)) <= 1) throw lastOwner();
    await tx
      .update(workspaceMembers)
      .set({ role: args.role })
      .where(and(inWorkspace(args.workspaceId), eq(workspaceMembers.userId, args.memberId)));
    return { ...current, role: args.role };
  });
}

/**
 * Removes a member: owners and admins remove others (only an owner removes an owner), and any
 * member may leave. The last owner can do neither.
 */
export async function removeMember(db: Db, args: { workspaceId: string; actorId: string; memberId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const actorRole = await lockWorkspaceAs(tx, { workspaceId: args.workspaceId, userId: args.actorId, access: 'view' });
    const leaving = args.memberId === args.actorId;
    if (!leaving && !isWorkspaceManager(actorRole)) {
      throw new DomainError('FORBIDDEN', 'only owners and admins of this workspace may remove other members');
    }
    const current = await findMember(tx, args.workspaceId, args.memberId);
    if (current.role === 'owner' && actorRole !== 'owner') throw onlyOwnersTouchOwners();
    if (current.role === 'owner' && (await countOwners(tx, args.workspaceId)) <= 1) throw lastOwner();
    await tx.delete(workspaceMembers).where(and(inWorkspace(args.workspaceId), eq(workspaceMembers.userId, args.memberId)));
  });
}
