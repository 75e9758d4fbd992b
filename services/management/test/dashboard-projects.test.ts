import { randomBytes } from 'node:crypto';
import { addWorkspaceMember, insertRaffle, insertUser, insertWorkspace } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { tokenFor } from './support/jwt.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let tenant: Tenant;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
  tenant = await seedTenant(testDb.database);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const UNKNOWN_PROJECT = 'prj_01JZZZZZZZZZZZZZZZZZZZZZZZ';
const as = (userId: string) => ({ authorization: `Bearer ${tokenFor(userId)}` });
const slug = (prefix = 'p') => `${prefix}-${randomBytes(5).toString('hex')}`;
const projects = (workspaceId: string) => `/api/dashboard/workspaces/${workspaceId}/projects`;

type Project = { id: string; workspaceId: string; slug: string; name: string; logoUrl: string | null; updatedAt: string };
type Page<T> = { data: T[]; pagination: { nextCursor: string | null; hasMore: boolean } };
type OutboxRow = { id: string; type: string; workspace_id: string | null; user_id: string | null; payload: string };

/** A fresh workspace with an owner, an admin and a member: each test's events are its own. */
async function staffedWorkspace() {
  const tag = randomBytes(5).toString('hex');
  return testDb.database.db.transaction(async (tx) => {
    const [owner, admin, member] = [
      await insertUser(tx, { handle: `owner-${tag}` }),
      await insertUser(tx, { handle: `admin-${tag}` }),
      await insertUser(tx, { handle: `member-${tag}` }),
    ];
    const workspace = await insertWorkspace(tx, { slug: `ws-${tag}`, name: `Workspace ${tag}` });
    await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: owner.id, role: 'owner' });
    await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: admin.id, role: 'admin' });
    await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: member.id, role: 'member' });
    return { owner, admin, member, workspace };
  });
}

async function createProject(workspaceId: string, userId: string, body: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: projects(workspaceId), headers: as(userId), payload: { slug: slug(), name: 'Project', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Project;
}

const outbox = (workspaceId: string) =>
  testDb.database.sql<OutboxRow[]>`select id, type, workspace_id, user_id, payload from event_outbox where workspace_id = ${workspaceId} order by seq`;

async function getBody(workspaceId: string, projectId: string, userId: string) {
  const res = await app.inject({ method: 'GET', url: `${projects(workspaceId)}/${projectId}`, headers: as(userId) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Project;
}

/** The envelope is exactly `{ type, timestamp, data }`, and `data` is what GET shows. */
function expectEvent(row: OutboxRow, type: string, workspaceId: string, data: unknown) {
  expect(row.type).toBe(type);
  expect(row.workspace_id).toBe(workspaceId);
  expect(row.user_id).toBeNull();
  const payload = JSON.parse(row.payload) as { type: string; timestamp: string; data: unknown };
  expectSchema('EventEnvelope', payload);
  expect(Object.keys(payload)).toEqual(['type', 'timestamp', 'data']);
  expect(payload.type).toBe(type);
  expect(payload.data).toEqual(data);
  expectSchema('Project', payload.data);
}

async function raffleNaming(workspaceId: string, projectId: string | null) {
  return insertRaffle(testDb.database.db, {
    workspaceId,
    slug: slug('raffle'),
    title: 'Mint pass',
    mechanic: 'raffle',
    allocationType: 'allowlist_gtd',
    visibility: 'public',
    spots: 5,
    canonicalProjectId: projectId,
  });
}

async function storedRaffle(raffleId: string) {
  const [row] = await testDb.database.sql<{ workspace_item_json: string; public_item_json: string; canonical_project_id: string | null }[]>`
    select workspace_item_json, public_item_json, canonical_project_id from raffles where id = ${raffleId}`;
  return { workspaceItem: JSON.parse(row!.workspace_item_json), publicItem: JSON.parse(row!.public_item_json), canonicalProjectId: row!.canonical_project_id };
}

describe('creating projects', () => {
  it('owners and admins create; the answer, GET and the one project.created event agree', async () => {
    const { owner, admin, member, workspace } = await staffedWorkspace();
    for (const user of [owner, admin]) {
      const before = (await outbox(workspace.id)).length;
      const created = await createProject(workspace.id, user.id, {
        name: 'Moonbirds',
        logoUrl: 'https://cdn.example/m.png',
        description: 'Owls',
        websiteUrl: 'https://moonbirds.example',
        chain: 'ethereum',
      });
      expectSchema('Project', created);
      expect(created).toMatchObject({ workspaceId: workspace.id, name: 'Moonbirds', chain: 'ethereum', description: 'Owls' });
      const got = await getBody(workspace.id, created.id, member.id);
      expect(got).toEqual(created);
      const events = (await outbox(workspace.id)).slice(before);
      expect(events).toHaveLength(1);
      expectEvent(events[0]!, 'project.created', workspace.id, got);
    }
  });

  it('optional fields default to null', async () => {
    const { owner, workspace } = await staffedWorkspace();
    const created = await createProject(workspace.id, owner.id);
    expect(created).toMatchObject({ logoUrl: null, description: null, websiteUrl: null, chain: null });
  });

  it('refuses bad bodies with 400 and records nothing', async () => {
    const { owner, workspace } = await staffedWorkspace();
    const bodies: unknown[] = [
      { name: 'No slug' },
      { slug: 'no-name' },
      { slug: 'Upper', name: 'A' },
      { slug: 'a_b', name: 'A' },
      { slug: 'ab', name: 'A' },
      { slug: 'x'.repeat(49), name: 'A' },
      { slug: 'ok-slug', name: '  ' },
      { slug: 'ok-slug', name: 'A', websiteUrl: 'moonbirds.example' },
      { slug: 'ok-slug', name: 'A', logoUrl: 'javascript:alert(1)' },
      { slug: 'ok-slug', name: 'A', chain: '' },
      { slug: 'ok-slug', name: 'A', description: 5 },
      { slug: 'ok-slug', name: 'A', workspaceId: tenant.otherWorkspace.id },
      { slug: 'ok-slug', name: 'A', id: UNKNOWN_PROJECT },
      [],
    ];
    for (const body of bodies) {
      const res = await app.inject({ method: 'POST', url: projects(workspace.id), headers: { ...as(owner.id), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      expectManagementError(res, 400);
    }
    expect(await outbox(workspace.id)).toEqual([]);
  });

  it('refuses a slug taken in the same workspace (409), not one taken elsewhere', async () => {
    const { owner, workspace } = await staffedWorkspace();
    const first = await createProject(workspace.id, owner.id);
    const again = await app.inject({ method: 'POST', url: projects(workspace.id), headers: as(owner.id), payload: { slug: first.slug, name: 'Copy' } });
    expect(String(expectManagementError(again, 409).message)).toMatch(/^SLUG_TAKEN: /);
    expect((await outbox(workspace.id)).filter((e) => e.type === 'project.created')).toHaveLength(1);
    await createProject(tenant.workspace.id, tenant.owner.id, { slug: first.slug });
  });

  it('members, outsiders and unknown workspaces get 403, before the body is read', async () => {
    const { member, workspace } = await staffedWorkspace();
    for (const [userId, workspaceId] of [
      [member.id, workspace.id],
      [tenant.outsider.id, workspace.id],
      [tenant.owner.id, 'wks_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
      [tenant.owner.id, 'nope'],
    ] as const) {
      for (const payload of [{ slug: slug(), name: 'X' }, { bad: true }]) {
        expectManagementError(await app.inject({ method: 'POST', url: projects(workspaceId), headers: as(userId), payload }), 403);
      }
    }
    expect(await outbox(workspace.id)).toEqual([]);
  });
});

describe('reading projects', () => {
  it('any member lists and gets; outsiders get 403', async () => {
    const { owner, member, workspace } = await staffedWorkspace();
    const created = await createProject(workspace.id, owner.id);
    const list = await app.inject({ method: 'GET', url: projects(workspace.id), headers: as(member.id) });
    expect(list.statusCode).toBe(200);
    expectSchema('DashboardProjectPage', list.json());
    expect(list.json()).toEqual({ data: [created], pagination: { nextCursor: null, hasMore: false } });
    for (const url of [projects(workspace.id), `${projects(workspace.id)}/${created.id}`]) {
      expectManagementError(await app.inject({ method: 'GET', url, headers: as(tenant.outsider.id) }), 403);
    }
    expectManagementError(await app.inject({ method: 'GET', url: projects('wks_01JZZZZZZZZZZZZZZZZZZZZZZZ'), headers: as(owner.id) }), 403);
  });

  it('answers 404 for unknown projects and for projects of another workspace', async () => {
    const { owner, workspace } = await staffedWorkspace();
    const elsewhere = await createProject(tenant.workspace.id, tenant.owner.id);
    for (const projectId of [UNKNOWN_PROJECT, 'not-a-project', elsewhere.id]) {
      const url = `${projects(workspace.id)}/${projectId}`;
      const res = await app.inject({ method: 'GET', url, headers: as(owner.id) });
      expect(String(expectManagementError(res, 404).message)).toMatch(/^PROJECT_NOT_FOUND: /);
      expectManagementError(await app.inject({ method: 'PATCH', url, headers: as(owner.id), payload: { name: 'X' } }), 404);
      expectManagementError(await app.inject({ method: 'DELETE', url, headers: as(owner.id) }), 404);
    }
    expect((await getBody(tenant.workspace.id, elsewhere.id, tenant.owner.id)).name).toBe('Project');
  });

  it('pages through every project exactly once, oldest first', async () => {
    const { owner, member, workspace } = await staffedWorkspace();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createProject(workspace.id, owner.id)).id);
    for (const limit of [1, 2, 3, 7, 100]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await app.inject({ method: 'GET', url: `${projects(workspace.id)}?${query}`, headers: as(member.id) });
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json() as Page<Project>;
        expectSchema('DashboardProjectPage', page);
        expect(page.data.length).toBeLessThanOrEqual(limit);
        expect(page.pagination.nextCursor === null).toBe(!page.pagination.hasMore);
        seen.push(...page.data.map((p) => p.id));
        cursor = page.pagination.nextCursor;
      } while (cursor);
      expect(seen).toEqual(ids);
    }
  });

  it('refuses bad limits and cursors, including a cursor of another workspace (400)', async () => {
    const { owner, workspace } = await staffedWorkspace();
    for (let i = 0; i < 2; i++) await createProject(workspace.id, owner.id);
    for (let i = 0; i < 2; i++) await createProject(tenant.workspace.id, tenant.owner.id);
    const foreign = ((await app.inject({ method: 'GET', url: `${projects(tenant.workspace.id)}?limit=1`, headers: as(tenant.owner.id) })).json() as Page<Project>)
      .pagination.nextCursor!;
    for (const query of ['limit=0', 'limit=101', 'limit=2.5', 'limit=x', 'limit=1e1', 'cursor=%20', 'cursor=bm9wZQ', `cursor=${foreign}`, 'sort=name']) {
      expectManagementError(await app.inject({ method: 'GET', url: `${projects(workspace.id)}?${query}`, headers: as(owner.id) }), 400);
    }
    const refused = await app.inject({ method: 'GET', url: `${projects(workspace.id)}?cursor=${foreign}`, headers: as(owner.id) });
    expect(refused.json().message).toBe('INVALID_CURSOR: cursor is not one this list issued; start again without it');
  });
});

describe('updating projects', () => {
  it('owners and admins patch; each change records one project.updated equal to GET', async () => {
    const { owner, admin, member, workspace } = await staffedWorkspace();
    const created = await createProject(workspace.id, owner.id, { description: 'old', chain: 'solana' });
    const url = `${projects(workspace.id)}/${created.id}`;
    const patches: Array<[string, Record<string, unknown>]> = [
      [owner.id, { name: 'Renamed' }],
      [admin.id, { description: null, websiteUrl: 'https://site.example', chain: 'ethereum' }],
      [owner.id, { slug: slug('moved'), logoUrl: 'https://cdn.example/l.png' }],
    ];
    for (const [userId, patch] of patches) {
      const before = (await outbox(workspace.id)).length;
      const res = await app.inject({ method: 'PATCH', url, headers: as(userId), payload: patch });
      expect(res.statusCode, res.body).toBe(200);
      expectSchema('Project', res.json());
      expect(res.json()).toMatchObject(patch);
      const got = await getBody(workspace.id, created.id, member.id);
      expect(got).toEqual(res.json());
      expect(Date.parse(got.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
      const events = (await outbox(workspace.id)).slice(before);
      expect(events).toHaveLength(1);
      expectEvent(events[0]!, 'project.updated', workspace.id, got);
    }
    const all = await outbox(workspace.id);
    expect(all.map((e) => e.type)).toEqual(['project.created', 'project.updated', 'project.updated', 'project.updated']);
  });

  it('a patch that changes nothing records no event', async () => {
    const { owner, workspace } = await staffedWorkspace();
    const created = await createProject(workspace.id, owner.id, { name: 'Same' });
    const res = await app.inject({ method: 'PATCH', url: `${projects(workspace.id)}/${created.id}`, headers: as(owner.id), payload: { name: 'Same', slug: created.slug } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
    expect((await outbox(workspace.id)).map((e) => e.type)).toEqual(['project.created']);
  });

  it('refuses bad patches (400), a taken slug (409) and non-managers (403)', async () => {
    const { owner, member, workspace } = await staffedWorkspace();
    const a = await createProject(workspace.id, owner.id);
    const b = await createProject(workspace.id, owner.id);
    const url = `${projects(workspace.id)}/${b.id}`;
    for (const body of [{}, { name: null }, { slug: null }, { slug: 'BAD' }, { websiteUrl: 'x' }, { name: 'X', workspaceId: tenant.workspace.id }, { createdAt: '2020-01-01T00:00:00Z' }]) {
      expectManagementError(await app.inject({ method: 'PATCH', url, headers: as(owner.id), payload: body }), 400);
    }
    const taken = await app.inject({ method: 'PATCH', url, headers: as(owner.id), payload: { slug: a.slug } });
    expect(String(expectManagementError(taken, 409).message)).toMatch(/^SLUG_TAKEN: /);
    expectManagementError(await app.inject({ method: 'PATCH', url, headers: as(member.id), payload: { name: 'Mine' } }), 403);
    expectManagementError(await app.inject({ method: 'PATCH', url, headers: as(member.id), payload: { bad: 1 } }), 403);
    expectManagementError(await app.inject({ method: 'PATCH', url, headers: as(tenant.outsider.id), payload: { name: 'Mine' } }), 403);
    expect((await outbox(workspace.id)).map((e) => e.type)).toEqual(['project.created', 'project.created']);
  });

  it("a rename re-renders the canonicalProject of the raffles naming it, and only theirs", async () => {
    const { owner, workspace } = await staffedWorkspace();
    const named = await createProject(workspace.id, owner.id, { name: 'Before' });
    const other = await createProject(workspace.id, owner.id, { name: 'Other' });
    const raffle = await raffleNaming(workspace.id, named.id);
    const unrelated = await raffleNaming(workspace.id, other.id);
    expect((await storedRaffle(raffle.id)).workspaceItem.canonicalProject.name).toBe('Before');

    const newSlug = slug('after');
    const res = await app.inject({
      method: 'PATCH',
      url: `${projects(workspace.id)}/${named.id}`,
      headers: as(owner.id),
      payload: { name: 'After', slug: newSlug, logoUrl: 'https://cdn.example/after.png' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await storedRaffle(raffle.id);
    expect(stored.workspaceItem.canonicalProject).toEqual({ id: named.id, slug: newSlug, name: 'After', logoUrl: 'https://cdn.example/after.png' });
    expect(stored.publicItem.canonicalProject).toEqual({ id: named.id, slug: newSlug, name: 'After', logoUrl: 'https://cdn.example/after.png' });
    expectSchema('WorkspaceRaffleItem', stored.workspaceItem);
    expectSchema('PublicRaffleItem', stored.publicItem);
    expect((await storedRaffle(unrelated.id)).workspaceItem.canonicalProject.name).toBe('Other');
  });
});

describe('deleting projects', () => {
  it('owners and admins delete (204); raffles naming the project lose it and are re-rendered', async () => {
    const { owner, admin, member, workspace } = await staffedWorkspace();
    const project = await createProject(workspace.id, owner.id);
    const second = await createProject(workspace.id, owner.id);
    const raffle = await raffleNaming(workspace.id, project.id);

    expectManagementError(await app.inject({ method: 'DELETE', url: `${projects(workspace.id)}/${project.id}`, headers: as(member.id) }), 403);
    expectManagementError(await app.inject({ method: 'DELETE', url: `${projects(workspace.id)}/${project.id}`, headers: as(tenant.outsider.id) }), 403);

    const res = await app.inject({ method: 'DELETE', url: `${projects(workspace.id)}/${project.id}`, headers: as(owner.id) });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expectManagementError(await app.inject({ method: 'GET', url: `${projects(workspace.id)}/${project.id}`, headers: as(owner.id) }), 404);
    expectManagementError(await app.inject({ method: 'DELETE', url: `${projects(workspace.id)}/${project.id}`, headers: as(owner.id) }), 404);

    const stored = await storedRaffle(raffle.id);
    expect(stored.canonicalProjectId).toBeNull();
    expect(stored.workspaceItem.canonicalProject).toBeNull();
    expect(stored.publicItem).not.toHaveProperty('canonicalProject');
    expectSchema('WorkspaceRaffleItem', stored.workspaceItem);

    expect((await app.inject({ method: 'DELETE', url: `${projects(workspace.id)}/${second.id}`, headers: as(admin.id) })).statusCode).toBe(204);
    const list = (await app.inject({ method: 'GET', url: projects(workspace.id), headers: as(owner.id) })).json() as Page<Project>;
    expect(list.data).toEqual([]);
    // No project.deleted event type exists.
    expect((await outbox(workspace.id)).map((e) => e.type)).toEqual(['project.created', 'project.created']);
  });
});

describe('authentication', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { workspace } = await staffedWorkspace();
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }]) {
      expectManagementError(await app.inject({ method: 'GET', url: projects(workspace.id), headers }), 401);
      expectManagementError(await app.inject({ method: 'POST', url: projects(workspace.id), headers, payload: { slug: slug(), name: 'X' } }), 401);
    }
  });
});
