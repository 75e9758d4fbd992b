import { insertProject } from '@raffle/db';
import { describe, it } from 'vitest';
import { createCursorCodec, createProject, deleteProject, getProject, listProjects, updateProject, type Principal } from '../src/index.js';
import { expectAccess, STANDINGS, VIEWERS, MANAGERS, suffix, useWorkspaceTeam, type Standing } from './support/workspace-team.js';

const team = useWorkspaceTeam();

const newProject = () => insertProject(team.db, { workspaceId: team.workspace.id, slug: `p-${suffix()}`, name: 'Project' });

type Action = { action: string; may: Standing[]; run: (actor: Principal) => Promise<unknown> };

const ACTIONS: Action[] = [
  { action: 'listProjects', may: VIEWERS, run: (actor) => listProjects(team.db, { workspaceId: team.workspace.id, actor, cursors: createCursorCodec('test-secret', 'dashboard') }) },
  { action: 'getProject', may: VIEWERS, run: async (actor) => getProject(team.db, { workspaceId: team.workspace.id, actor, projectId: (await newProject()).id }) },
  {
    action: 'createProject',
    may: MANAGERS,
    run: (actor) => createProject(team.db, { workspaceId: team.workspace.id, actor, body: { slug: `p-${suffix()}`, name: 'Project' } }),
  },
  {
    action: 'updateProject',
    may: MANAGERS,
    run: async (actor) =>
      updateProject(team.db, { workspaceId: team.workspace.id, actor, projectId: (await newProject()).id, body: { name: 'Renamed' } }),
  },
  {
    action: 'deleteProject',
    may: MANAGERS,
    run: async (actor) => deleteProject(team.db, { workspaceId: team.workspace.id, actor, projectId: (await newProject()).id }),
  },
];

const CASES = ACTIONS.flatMap((a) => STANDINGS.map((standing) => ({ ...a, standing, allowed: a.may.includes(standing) })));

describe('project functions check the acting principal in their own transaction', () => {
  it.each(CASES)('$action as $standing: allowed $allowed', async ({ run, standing, allowed }) => {
    await expectAccess(run(team.actors[standing]), allowed);
  });
});
