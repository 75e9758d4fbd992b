import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../src/http/http-client.js';
import type { Profile } from '../src/index.js';
import type { Project, RaffleManagementClient } from '../src/management/index.js';
import { collect, startManagement, uniqueSlug, type ManagementService } from './support/management-service.js';

let service: ManagementService;
let founder: RaffleManagementClient;
let founderId: string;

beforeAll(async () => {
  service = await startManagement();
  founderId = (await service.newUser()).id;
  founder = service.clientFor(founderId);
});

afterAll(async () => {
  await service?.close();
});

describe('the signed-in user', () => {
  it('me.get() answers their profile, typed as the data plane\'s Profile, without any workspace', async () => {
    const user = await service.newUser();
    const profile: Profile = await service.clientFor(user.id).me.get();
    expect(profile).toEqual({ id: user.id, handle: user.handle, wallets: [], createdAt: '2020-01-01T00:00:00.000Z' });
  });

  it('me.get() with a token of no user is a RaffleApiError 401 SESSION_TOKEN_INVALID', async () => {
    await expect(service.clientFor('usr_01JZZZZZZZZZZZZZZZZZZZZZZZ').me.get()).rejects.toMatchObject({ status: 401, code: 'SESSION_TOKEN_INVALID' });
  });
});

describe('workspaces, members and projects', () => {
  it('create, get, update and list workspaces', async () => {
    const slug = uniqueSlug('ws');
    const created = await founder.workspaces.create({ slug, name: 'SDK workspace' });
    expect(created).toMatchObject({ slug, name: 'SDK workspace', role: 'owner', logoUrl: null });
    expect(await founder.workspaces.get(created.id)).toMatchObject({ id: created.id, role: 'owner' });
    const renamed = await founder.workspaces.update(created.id, { name: 'Renamed', logoUrl: 'https://cdn.example/logo.png' });
    expect(renamed).toMatchObject({ id: created.id, name: 'Renamed', logoUrl: 'https://cdn.example/logo.png' });
    const mine = await collect(founder.workspaces.list());
    expect(mine.map((w) => w.id)).toContain(created.id);
  });

  it('add, list, update and remove members; a member sees the workspace and may leave it', async () => {
    const workspace = await founder.workspaces.create({ slug: uniqueSlug('team'), name: 'Team' });
    const alice = await service.newUser();
    const bob = await service.newUser();
    expect(await founder.workspaces.members.add(workspace.id, { userId: alice.id, role: 'member' })).toMatchObject({ userId: alice.id, role: 'member', handle: alice.handle });
    await founder.workspaces.members.add(workspace.id, { userId: bob.id, role: 'member' });

    const members = await collect(founder.workspaces.members.list(workspace.id, { limit: 1 }));
    expect(members.map((m) => m.userId).sort()).toEqual([founderId, alice.id, bob.id].sort());

    expect(await founder.workspaces.members.update(workspace.id, alice.id, { role: 'admin' })).toMatchObject({ userId: alice.id, role: 'admin' });
    const asAlice = service.clientFor(alice.id);
    expect(await asAlice.workspaces.get(workspace.id)).toMatchObject({ id: workspace.id, role: 'admin' });

    await expect(founder.workspaces.members.remove(workspace.id, bob.id)).resolves.toBeUndefined();
    // Leaving: a member removes themself.
    await asAlice.workspaces.members.remove(workspace.id, alice.id);
    await expect(asAlice.workspaces.get(workspace.id)).rejects.toMatchObject({ status: 403 });
    expect((await collect(founder.workspaces.members.list(workspace.id))).map((m) => m.userId)).toEqual([founderId]);
  });

  it('projects: create, get, update (null clears), list, delete', async () => {
    const workspace = await founder.workspaces.create({ slug: uniqueSlug('proj'), name: 'Projects' });
    const project = await founder.workspaces.projects.create(workspace.id, { slug: 'genesis', name: 'Genesis', description: 'First', chain: 'ethereum' });
    expect(project).toMatchObject({ workspaceId: workspace.id, slug: 'genesis', name: 'Genesis', description: 'First', chain: 'ethereum' });
    expect(await founder.workspaces.projects.get(workspace.id, project.id)).toEqual(project);
    const updated = await founder.workspaces.projects.update(workspace.id, project.id, { name: 'Genesis II', description: null });
    expect(updated).toMatchObject({ id: project.id, name: 'Genesis II', description: null, chain: 'ethereum' });
    expect((await collect(founder.workspaces.projects.list(workspace.id))).map((p) => p.id)).toEqual([project.id]);
    await expect(founder.workspaces.projects.delete(workspace.id, project.id)).resolves.toBeUndefined();
    await expect(founder.workspaces.projects.get(workspace.id, project.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('auto-pagination', () => {
  it('walks every page of a list lazily, in order, each item once; page() follows a cursor by hand', async () => {
    const workspace = await founder.workspaces.create({ slug: uniqueSlug('pages'), name: 'Pages' });
    const created: Project[] = [];
    for (let i = 0; i < 7; i++) created.push(await founder.workspaces.projects.create(workspace.id, { slug: `p-${i}`, name: `Project ${i}` }));

    // Count the requests the walk makes: pages are fetched only as the loop reaches them.
    const requested: string[] = [];
    const counting = service.clientFor(founderId, {
      fetch: (input, init) => {
        requested.push(String(input));
        return fetch(input, init);
      },
    });
    const list = counting.workspaces.projects.list(workspace.id, { limit: 2 });
    expect(requested).toHaveLength(0);
    const seen: string[] = [];
    for await (const project of list) {
      seen.push(project.id);
      if (seen.length === 1) expect(requested).toHaveLength(1);
    }
    // Oldest first: the creation order, every project exactly once, over four pages of at most two.
    expect(seen).toEqual(created.map((p) => p.id));
    expect(requested).toHaveLength(4);
    expect(requested.every((url) => new URL(url).searchParams.get('limit') === '2')).toBe(true);
    expect(requested.slice(1).every((url) => new URL(url).searchParams.has('cursor'))).toBe(true);

    // Breaking out of the loop stops the walk.
    requested.length = 0;
    for await (const _project of counting.workspaces.projects.list(workspace.id, { limit: 2 })) break;
    expect(requested).toHaveLength(1);

    // By hand: page() with the previous page's cursor.
    const byHand: string[] = [];
    let page: Page<Project> = await founder.workspaces.projects.list(workspace.id, { limit: 3 }).page();
    byHand.push(...page.data.map((p) => p.id));
    while (page.pagination.hasMore) {
      page = await founder.workspaces.projects.list(workspace.id, { limit: 3 }).page({ cursor: page.pagination.nextCursor! });
      byHand.push(...page.data.map((p) => p.id));
    }
    expect(byHand).toEqual(created.map((p) => p.id));
  });
});
