import { randomBytes } from 'node:crypto';
import { addWorkspaceMember, insertUser, insertWorkspace, type Database } from '@raffle/db';

export type Tenant = Awaited<ReturnType<typeof seedTenant>>;

/** A random tenant: a workspace with an owner, an admin and a member, an outsider, and a second workspace. */
export async function seedTenant(database: Database) {
  const tag = randomBytes(4).toString('hex');
  return database.db.transaction(async (tx) => {
    const owner = await insertUser(tx, { handle: `owner-${tag}` });
    const admin = await insertUser(tx, { handle: `admin-${tag}` });
    const member = await insertUser(tx, { handle: `member-${tag}` });
    const outsider = await insertUser(tx, { handle: `outsider-${tag}` });
    const workspace = await insertWorkspace(tx, { slug: `ws-${tag}`, name: `Workspace ${tag}` });
    const otherWorkspace = await insertWorkspace(tx, { slug: `other-${tag}`, name: `Other ${tag}` });
    await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: owner.id, role: 'owner' });
    await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: admin.id, role: 'admin' });
    await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: member.id, role: 'member' });
    await addWorkspaceMember(tx, { workspaceId: otherWorkspace.id, userId: outsider.id, role: 'owner' });
    return { tag, owner, admin, member, outsider, workspace, otherWorkspace };
  });
}
