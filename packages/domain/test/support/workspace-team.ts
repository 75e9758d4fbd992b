import { randomBytes } from 'node:crypto';
import { addWorkspaceMember, insertUser, insertWorkspace, type Database } from '@raffle/db';
import { afterAll, beforeAll, expect } from 'vitest';
import { SEED, userPrincipal, type Principal } from '../../src/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export const suffix = () => randomBytes(5).toString('hex');

/** Who may act on a workspace's things, from most to least trusted. */
export type Standing = 'system' | 'owner' | 'admin' | 'member' | 'outsider';

export const STANDINGS: Standing[] = ['system', 'owner', 'admin', 'member', 'outsider'];
/** May see a workspace's things. */
export const VIEWERS: Standing[] = ['system', 'owner', 'admin', 'member'];
/** May change them. */
export const MANAGERS: Standing[] = ['system', 'owner', 'admin'];
/** May change who owns the workspace. */
export const OWNERS: Standing[] = ['system', 'owner'];

/**
 * A workspace with one user in each role and one outsider (a user of another workspace): each
 * test file its own tenant. `actors` are the principals the domain functions take.
 */
export async function createWorkspaceTeam(database: Database) {
  const { db } = database;
  const workspace = await insertWorkspace(db, { slug: `team-${suffix()}`, name: 'Team' });
  const elsewhere = await insertWorkspace(db, { slug: `other-${suffix()}`, name: 'Elsewhere' });
  const person = async (handle: string, role: 'owner' | 'admin' | 'member', workspaceId = workspace.id) => {
    const user = await insertUser(db, { handle: `${handle}-${suffix()}` });
    await addWorkspaceMember(db, { workspaceId, userId: user.id, role });
    return user;
  };
  const users = {
    owner: await person('owner', 'owner'),
    admin: await person('admin', 'admin'),
    member: await person('member', 'member'),
    // An owner, of another workspace: owning something is not owning everything.
    outsider: await person('outsider', 'owner', elsewhere.id),
  };
  const actors: Record<Standing, Principal> = {
    system: SEED,
    owner: userPrincipal(users.owner.id),
    admin: userPrincipal(users.admin.id),
    member: userPrincipal(users.member.id),
    outsider: userPrincipal(users.outsider.id),
  };
  return { db, workspace, users, actors, person };
}

/** The action succeeds, or is refused with 403 FORBIDDEN, as `allowed` says. */
export async function expectAccess(action: Promise<unknown>, allowed: boolean): Promise<void> {
  if (allowed) await action;
  else await expect(action).rejects.toMatchObject({ code: 'FORBIDDEN', statusCode: 403 });
}

export type WorkspaceTeam = Awaited<ReturnType<typeof createWorkspaceTeam>>;

/**
 * The test file's tenant: a database of its own and a team in it, made before the file's tests
 * and dropped after. The object is filled in by then, so tests read `team.db` and the like directly.
 */
export function useWorkspaceTeam(): WorkspaceTeam {
  const team = {} as WorkspaceTeam;
  let testDb: TestDatabase | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    Object.assign(team, await createWorkspaceTeam(testDb.database));
  });
  afterAll(() => testDb?.drop());
  return team;
}
