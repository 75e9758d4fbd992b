import { insertUser } from '@raffle/db';
import { describe, expect, it } from 'vitest';
import { addMember, createCursorCodec, createWorkspace, getWorkspace, listMembers, removeMember, updateMemberRole, updateWorkspace, type Principal } from '../src/index.js';
import { expectAccess, STANDINGS, VIEWERS, MANAGERS, OWNERS, suffix, useWorkspaceTeam, type Standing } from './support/workspace-team.js';

const team = useWorkspaceTeam();

type Action = { action: string; may: Standing[]; run: (actor: Principal) => Promise<unknown> };

// Each run makes its own target, so a success does not change what the next case sees.
const ACTIONS: Action[] = [
  { action: 'getWorkspace', may: VIEWERS, run: (actor) => getWorkspace(team.db, { workspaceId: team.workspace.id, actor }) },
  { action: 'listMembers', may: VIEWERS, run: (actor) => listMembers(team.db, { workspaceId: team.workspace.id, actor, cursors: createCursorCodec('test-secret', 'dashboard') }) },
  {
    action: 'updateWorkspace',
    may: MANAGERS,
    run: (actor) => updateWorkspace(team.db, { workspaceId: team.workspace.id, actor, body: { name: `Renamed ${suffix()}` } }),
  },
  {
    action: 'addMember',
    may: MANAGERS,
    run: async (actor) => {
      const user = await insertUser(team.db, { handle: `new-${suffix()}` });
      return addMember(team.db, { workspaceId: team.workspace.id, actor, body: { userId: user.id, role: 'member' } });
    },
  },
  {
    action: 'addMember as owner',
    may: OWNERS,
    run: async (actor) => {
      const user = await insertUser(team.db, { handle: `new-${suffix()}` });
      return addMember(team.db, { workspaceId: team.workspace.id, actor, body: { userId: user.id, role: 'owner' } });
    },
  },
  {
    action: 'updateMemberRole',
    may: MANAGERS,
    run: async (actor) => {
      const target = await team.person('target', 'member');
      return updateMemberRole(team.db, { workspaceId: team.workspace.id, actor, memberId: target.id, role: 'admin' });
    },
  },
  {
    action: 'updateMemberRole of an owner',
    may: OWNERS,
    run: async (actor) => {
      const target = await team.person('target', 'owner');
      return updateMemberRole(team.db, { workspaceId: team.workspace.id, actor, memberId: target.id, role: 'admin' });
    },
  },
  {
    action: 'removeMember of another member',
    may: MANAGERS,
    run: async (actor) => {
      const target = await team.person('target', 'member');
      return removeMember(team.db, { workspaceId: team.workspace.id, actor, memberId: target.id });
    },
  },
  {
    action: 'removeMember of an owner',
    may: OWNERS,
    run: async (actor) => {
      const target = await team.person('target', 'owner');
      return removeMember(team.db, { workspaceId: team.workspace.id, actor, memberId: target.id });
    },
  },
];

const CASES = ACTIONS.flatMap((a) => STANDINGS.map((standing) => ({ ...a, standing, allowed: a.may.includes(standing) })));

describe('workspace and membership functions check the acting principal in their own transaction', () => {
  it.each(CASES)('$action as $standing: allowed $allowed', async ({ run, standing, allowed }) => {
    await expectAccess(run(team.actors[standing]), allowed);
  });

  it('lets any member leave, but not a non-member "leave" a workspace', async () => {
    const leaver = await team.person('leaver', 'member');
    await removeMember(team.db, { workspaceId: team.workspace.id, actor: { kind: 'user', userId: leaver.id }, memberId: leaver.id });
    await expectAccess(removeMember(team.db, { workspaceId: team.workspace.id, actor: team.actors.outsider, memberId: team.users.outsider.id }), false);
  });

  it('creates a workspace owned by the acting user, and none for the system', async () => {
    const created = await createWorkspace(team.db, { actor: team.actors.member, body: { slug: `mine-${suffix()}`, name: 'Mine' } });
    expect(created.role).toBe('owner');
    await expect(getWorkspace(team.db, { workspaceId: created.id, actor: team.actors.member })).resolves.toMatchObject({ role: 'owner' });
    await expectAccess(createWorkspace(team.db, { actor: team.actors.system, body: { slug: `sys-${suffix()}`, name: 'System' } }), false);
  });
});
