import { randomBytes } from 'node:crypto';
import { insertRaffle, insertUser } from '@raffle/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { tokenFor } from './support/jwt.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let testDb: TestDatabase;
let app: ManagementApp;
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

const BASE = '/api/dashboard/workspaces';
const UNKNOWN_WORKSPACE = 'wks_01JZZZZZZZZZZZZZZZZZZZZZZZ';
const as = (userId: string) => ({ authorization: `Bearer ${tokenFor(userId)}` });
const slug = (prefix = 'ws') => `${prefix}-${randomBytes(5).toString('hex')}`;

type Workspace = { id: string; slug: string; name: string; logoUrl: string | null; role: string };
type Member = { userId: string; role: string; handle: string };
type Page<T> = { data: T[]; pagination: { nextCursor: string | null; hasMore: boolean } };

async function newUser(tag = 'u') {
  return insertUser(testDb.database.db, { handle: `${tag}-${randomBytes(5).toString('hex')}` });
}

async function createWorkspace(userId: string, body: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: BASE, headers: as(userId), payload: { slug: slug(), name: 'Acme', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Workspace;
}

/** A workspace with an owner, an admin and a member, all fresh users. */
async function staffedWorkspace() {
  const [owner, admin, member] = [await newUser('owner'), await newUser('admin'), await newUser('member')];
  const workspace = await createWorkspace(owner.id);
  for (const [user, role] of [[admin, 'admin'], [member, 'member']] as const) {
    const res = await app.inject({ method: 'POST', url: `${BASE}/${workspace.id}/members`, headers: as(owner.id), payload: { userId: user.id, role } });
    expect(res.statusCode, res.body).toBe(201);
  }
  return { owner, admin, member, workspace };
}

/** Follows nextCursor to the end; every page must match its schema. */
async function walk<T>(url: string, userId: string, limit: number, schema: string): Promise<T[]> {
  const seen: T[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await app.inject({ method: 'GET', url: `${url}?${query}`, headers: as(userId) });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page<T>;
    expectSchema(schema, page);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    seen.push(...page.data);
    if (!page.pagination.hasMore) {
      expect(page.pagination.nextCursor).toBeNull();
      return seen;
    }
    cursor = page.pagination.nextCursor;
  }
  throw new Error('pagination did not end');
}

describe('authentication', () => {
  it('every dashboard route answers 401 without a session token', async () => {
    const routes = app.managedRoutes.filter((r) => r.url.startsWith('/api/dashboard/'));
    expect(routes.length).toBeGreaterThanOrEqual(13);
    for (const route of routes) {
      const url = route.url.replace(':workspaceId', tenant.workspace.id).replace(':userId', tenant.member.id).replace(':projectId', 'prj_01JZZZZZZZZZZZZZZZZZZZZZZZ');
      const res = await app.inject({ method: route.method as 'GET', url, ...(['POST', 'PATCH'].includes(route.method) ? { payload: {} } : {}) });
      expectManagementError(res, 401);
    }
  });
});

describe('workspaces', () => {
  it('creates a workspace whose owner is the caller, and shows it', async () => {
    const user = await newUser();
    const created = await createWorkspace(user.id, { name: 'Moonbirds', logoUrl: 'https://cdn.example/logo.png' });
    expectSchema('DashboardWorkspace', created);
    expect(created).toMatchObject({ name: 'Moonbirds', logoUrl: 'https://cdn.example/logo.png', role: 'owner' });
    const got = await app.inject({ method: 'GET', url: `${BASE}/${created.id}`, headers: as(user.id) });
    expect(got.statusCode).toBe(200);
    expectSchema('DashboardWorkspace', got.json());
    expect(got.json()).toEqual(created);
    const members = (await app.inject({ method: 'GET', url: `${BASE}/${created.id}/members`, headers: as(user.id) })).json() as Page<Member>;
    expect(members.data.map((m) => [m.userId, m.role])).toEqual([[user.id, 'owner']]);
  });

  it('defaults logoUrl to null', async () => {
    const created = await createWorkspace((await newUser()).id);
    expect(created.logoUrl).toBeNull();
  });

  const badBodies: Array<[string, unknown]> = [
    ['a missing slug', { name: 'A' }],
    ['a missing name', { slug: 'valid-slug' }],
    ['a two-character slug', { slug: 'ab', name: 'A' }],
    ['a 49-character slug', { slug: 'a'.repeat(49), name: 'A' }],
    ['an uppercase slug', { slug: 'Acme-Labs', name: 'A' }],
    ['an underscore in the slug', { slug: 'acme_labs', name: 'A' }],
    ['a leading hyphen', { slug: '-acme', name: 'A' }],
    ['a trailing hyphen', { slug: 'acme-', name: 'A' }],
    ['a blank name', { slug: 'acme-blank', name: '   ' }],
    ['an empty name', { slug: 'acme-empty', name: '' }],
    ['a numeric name', { slug: 'acme-num', name: 5 }],
    ['a logoUrl that is not a URL', { slug: 'acme-logo', name: 'A', logoUrl: 'logo.png' }],
    ['a non-http logoUrl', { slug: 'acme-ftp', name: 'A', logoUrl: 'ftp://cdn.example/logo.png' }],
    ['an extra field', { slug: 'acme-extra', name: 'A', id: 'wks_01JZZZZZZZZZZZZZZZZZZZZZZZ' }],
    ['an array body', [{ slug: 'acme-array', name: 'A' }]],
  ];
  for (const [name, body] of badBodies) {
    it(`refuses to create with ${name} (400)`, async () => {
      const res = await app.inject({ method: 'POST', url: BASE, headers: { ...as(tenant.owner.id), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      expectManagementError(res, 400);
    });
  }

  it('accepts slugs at the length limits', async () => {
    const user = await newUser();
    for (const s of [`a${randomBytes(1).toString('hex')}`.slice(0, 3), `${randomBytes(24).toString('hex')}`]) {
      const res = await app.inject({ method: 'POST', url: BASE, headers: as(user.id), payload: { slug: s, name: 'Edge' } });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('refuses a taken slug with 409, and creates nothing', async () => {
    const user = await newUser();
    const res = await app.inject({ method: 'POST', url: BASE, headers: as(user.id), payload: { slug: tenant.workspace.slug, name: 'Copycat' } });
    const body = expectManagementError(res, 409);
    expect(String(body.message)).toMatch(/^SLUG_TAKEN: /);
    const mine = (await app.inject({ method: 'GET', url: BASE, headers: as(user.id) })).json() as Page<Workspace>;
    expect(mine.data).toEqual([]);
  });

  it('lists only my workspaces, with my role', async () => {
    const res = await app.inject({ method: 'GET', url: BASE, headers: as(tenant.member.id) });
    expect(res.statusCode).toBe(200);
    const page = res.json() as Page<Workspace>;
    expectSchema('DashboardWorkspacePage', page);
    expect(page.data.map((w) => [w.id, w.role])).toEqual([[tenant.workspace.id, 'member']]);
    expect(page.pagination).toEqual({ nextCursor: null, hasMore: false });
  });

  it('pages through my workspaces: every one exactly once, in id order', async () => {
    const user = await newUser();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createWorkspace(user.id)).id);
    // Also a member elsewhere: that workspace is listed too, with its role.
    await app.inject({ method: 'POST', url: `${BASE}/${tenant.workspace.id}/members`, headers: as(tenant.owner.id), payload: { userId: user.id, role: 'member' } });
    for (const limit of [1, 2, 3, 100]) {
      const seen = await walk<Workspace>(BASE, user.id, limit, 'DashboardWorkspacePage');
      expect(seen.map((w) => w.id)).toEqual([...ids, tenant.workspace.id].sort());
      expect(new Set(seen.map((w) => w.id)).size).toBe(8);
      expect(seen.find((w) => w.id === tenant.workspace.id)?.role).toBe('member');
    }
  });

  it('refuses bad limits and cursors with 400', async () => {
    const user = await newUser();
    for (let i = 0; i < 2; i++) await createWorkspace(user.id);
    const first = (await app.inject({ method: 'GET', url: `${BASE}?limit=1`, headers: as(user.id) })).json() as Page<Workspace>;
    const cursor = first.pagination.nextCursor!;
    const otherUsersCursor = (
      (await app.inject({ method: 'GET', url: `${BASE}/${tenant.workspace.id}/members?limit=1`, headers: as(tenant.owner.id) })).json() as Page<Member>
    ).pagination.nextCursor!;
    const queries = [
      'limit=0',
      'limit=101',
      'limit=-1',
      'limit=1.5',
      'limit=1e2',
      'limit=abc',
      'limit=',
      'limit=07',
      'cursor=',
      'cursor=not-a-cursor',
      `cursor=${cursor}x`,
      `cursor=${encodeURIComponent(cursor.slice(0, -2))}`,
      `cursor=${Buffer.from('["dashboard:workspaces:someone-else","wks_01JZZZZZZZZZZZZZZZZZZZZZZZ"]').toString('base64url')}`,
      `cursor=${otherUsersCursor}`,
      'cursor=' + 'a'.repeat(600),
      'page=2',
    ];
    for (const query of queries) {
      expectManagementError(await app.inject({ method: 'GET', url: `${BASE}?${query}`, headers: as(user.id) }), 400);
    }
    expect((await app.inject({ method: 'GET', url: `${BASE}?cursor=${cursor}`, headers: as(user.id) })).statusCode).toBe(200);
  });

  it('answers 403 to outsiders and for unknown or malformed workspace ids', async () => {
    for (const [userId, workspaceId] of [
      [tenant.outsider.id, tenant.workspace.id],
      [tenant.owner.id, tenant.otherWorkspace.id],
      [tenant.owner.id, UNKNOWN_WORKSPACE],
      [tenant.owner.id, 'not-a-workspace'],
    ] as const) {
      expectManagementError(await app.inject({ method: 'GET', url: `${BASE}/${workspaceId}`, headers: as(userId) }), 403);
      expectManagementError(await app.inject({ method: 'PATCH', url: `${BASE}/${workspaceId}`, headers: as(userId), payload: { name: 'Mine' } }), 403);
      // Refused before validation: a bad body tells a non-member nothing.
      expectManagementError(await app.inject({ method: 'PATCH', url: `${BASE}/${workspaceId}`, headers: as(userId), payload: { nope: 1 } }), 403);
    }
  });

  it('owners and admins update; members get 403', async () => {
    const { owner, admin, member, workspace } = await staffedWorkspace();
    const byOwner = await app.inject({ method: 'PATCH', url: `${BASE}/${workspace.id}`, headers: as(owner.id), payload: { name: 'Renamed', logoUrl: 'https://cdn.example/new.png' } });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expectSchema('DashboardWorkspace', byOwner.json());
    expect(byOwner.json()).toMatchObject({ name: 'Renamed', logoUrl: 'https://cdn.example/new.png', slug: workspace.slug, role: 'owner' });
    const newSlug = slug('moved');
    const byAdmin = await app.inject({ method: 'PATCH', url: `${BASE}/${workspace.id}`, headers: as(admin.id), payload: { slug: newSlug, logoUrl: null } });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json()).toMatchObject({ name: 'Renamed', logoUrl: null, slug: newSlug, role: 'admin' });
    expectManagementError(await app.inject({ method: 'PATCH', url: `${BASE}/${workspace.id}`, headers: as(member.id), payload: { name: 'Mine' } }), 403);
    expectManagementError(await app.inject({ method: 'PATCH', url: `${BASE}/${workspace.id}`, headers: as(member.id), payload: { nope: 1 } }), 403);
    const got = (await app.inject({ method: 'GET', url: `${BASE}/${workspace.id}`, headers: as(member.id) })).json() as Workspace;
    expect(got).toMatchObject({ name: 'Renamed', slug: newSlug, role: 'member' });
  });

  it('refuses bad updates with 400 and a taken slug with 409', async () => {
    const { owner, workspace } = await staffedWorkspace();
    for (const body of [{}, { name: '' }, { name: null }, { slug: 'UPPER' }, { slug: null }, { logoUrl: 'nope' }, { name: 'A', extra: true }]) {
      expectManagementError(await app.inject({ method: 'PATCH', url: `${BASE}/${workspace.id}`, headers: as(owner.id), payload: body }), 400);
    }
    const taken = await app.inject({ method: 'PATCH', url: `${BASE}/${workspace.id}`, headers: as(owner.id), payload: { slug: tenant.otherWorkspace.slug } });
    expect(String(expectManagementError(taken, 409).message)).toMatch(/^SLUG_TAKEN: /);
  });

  it("re-renders the stored JSON of the workspace's raffles", async () => {
    const { owner, workspace } = await staffedWorkspace();
    const raffle = await insertRaffle(testDb.database.db, {
      workspaceId: workspace.id,
      slug: slug('raffle'),
      title: 'Mint pass',
      mechanic: 'raffle',
      allocationType: 'allowlist_gtd',
      visibility: 'public',
      spots: 10,
    });
    const newSlug = slug('renamed');
    const res = await app.inject({
      method: 'PATCH',
      url: `${BASE}/${workspace.id}`,
      headers: as(owner.id),
      payload: { name: 'New Name', slug: newSlug, logoUrl: 'https://cdn.example/w.png' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await testDb.database.sql<{ public_item_json: string; updated_at: Date }[]>`
      select public_item_json, updated_at from raffles where id = ${raffle.id}`;
    expect(JSON.parse(row!.public_item_json).workspace).toEqual({ id: workspace.id, slug: newSlug, name: 'New Name', logoUrl: 'https://cdn.example/w.png' });
    expectSchema('PublicRaffleItem', JSON.parse(row!.public_item_json));
  });
});

describe('members', () => {
  const members = (workspaceId: string) => `${BASE}/${workspaceId}/members`;

  it('any member lists the members; outsiders and unknown workspaces get 403', async () => {
    const { owner, admin, member, workspace } = await staffedWorkspace();
    const res = await app.inject({ method: 'GET', url: members(workspace.id), headers: as(member.id) });
    expect(res.statusCode).toBe(200);
    const page = res.json() as Page<Member>;
    expectSchema('WorkspaceMemberPage', page);
    expect(page.data.map((m) => [m.userId, m.role]).sort()).toEqual(
      [[owner.id, 'owner'], [admin.id, 'admin'], [member.id, 'member']].sort(),
    );
    for (const [userId, workspaceId] of [[tenant.outsider.id, workspace.id], [owner.id, UNKNOWN_WORKSPACE], [owner.id, 'x']] as const) {
      expectManagementError(await app.inject({ method: 'GET', url: members(workspaceId), headers: as(userId) }), 403);
    }
  });

  it('pages through members: every one exactly once', async () => {
    const { owner, workspace } = await staffedWorkspace();
    for (let i = 0; i < 5; i++) {
      const user = await newUser();
      await app.inject({ method: 'POST', url: members(workspace.id), headers: as(owner.id), payload: { userId: user.id, role: 'member' } });
    }
    const all = (await app.inject({ method: 'GET', url: members(workspace.id), headers: as(owner.id) })).json() as Page<Member>;
    expect(all.data).toHaveLength(8);
    for (const limit of [1, 3]) {
      const seen = await walk<Member>(members(workspace.id), owner.id, limit, 'WorkspaceMemberPage');
      expect(seen).toEqual(all.data);
    }
    expectManagementError(await app.inject({ method: 'GET', url: `${members(workspace.id)}?limit=0`, headers: as(owner.id) }), 400);
    expectManagementError(await app.inject({ method: 'GET', url: `${members(workspace.id)}?cursor=zzz`, headers: as(owner.id) }), 400);
  });

  it('owners and admins add members; only an owner adds an owner', async () => {
    const { owner, admin, workspace } = await staffedWorkspace();
    const [a, b] = [await newUser(), await newUser()];
    const added = await app.inject({ method: 'POST', url: members(workspace.id), headers: as(admin.id), payload: { userId: a.id, role: 'admin' } });
    expect(added.statusCode, added.body).toBe(201);
    expectSchema('WorkspaceMember', added.json());
    expect(added.json()).toMatchObject({ userId: a.id, handle: a.handle, role: 'admin', displayName: null, avatarUrl: null });

    expectManagementError(await app.inject({ method: 'POST', url: members(workspace.id), headers: as(admin.id), payload: { userId: b.id, role: 'owner' } }), 403);
    const asOwner = await app.inject({ method: 'POST', url: members(workspace.id), headers: as(owner.id), payload: { userId: b.id, role: 'owner' } });
    expect(asOwner.statusCode).toBe(201);
    expect((asOwner.json() as Member).role).toBe('owner');

    const again = await app.inject({ method: 'POST', url: members(workspace.id), headers: as(owner.id), payload: { userId: a.id, role: 'member' } });
    expect(String(expectManagementError(again, 409).message)).toMatch(/^ALREADY_MEMBER: /);
  });

  it('refuses unknown users (404), bad bodies (400) and non-managers (403)', async () => {
    const { owner, member, workspace } = await staffedWorkspace();
    for (const userId of ['usr_01JZZZZZZZZZZZZZZZZZZZZZZZ', 'nobody']) {
      expectManagementError(await app.inject({ method: 'POST', url: members(workspace.id), headers: as(owner.id), payload: { userId, role: 'member' } }), 404);
    }
    const user = await newUser();
    for (const body of [{ userId: user.id }, { role: 'member' }, { userId: user.id, role: 'boss' }, { userId: user.id, role: 'member', extra: 1 }, { userId: 5, role: 'member' }]) {
      expectManagementError(await app.inject({ method: 'POST', url: members(workspace.id), headers: as(owner.id), payload: body }), 400);
    }
    expectManagementError(await app.inject({ method: 'POST', url: members(workspace.id), headers: as(member.id), payload: { userId: user.id, role: 'member' } }), 403);
    expectManagementError(await app.inject({ method: 'POST', url: members(workspace.id), headers: as(member.id), payload: { bad: true } }), 403);
    expectManagementError(await app.inject({ method: 'POST', url: members(tenant.workspace.id), headers: as(owner.id), payload: { userId: user.id, role: 'member' } }), 403);
  });

  it('changes roles within the rules', async () => {
    const { owner, admin, member, workspace } = await staffedWorkspace();
    const url = (userId: string) => `${members(workspace.id)}/${userId}`;

    const promoted = await app.inject({ method: 'PATCH', url: url(member.id), headers: as(admin.id), payload: { role: 'admin' } });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expectSchema('WorkspaceMember', promoted.json());
    expect((promoted.json() as Member).role).toBe('admin');

    // Only an owner grants or changes 'owner'.
    expectManagementError(await app.inject({ method: 'PATCH', url: url(member.id), headers: as(admin.id), payload: { role: 'owner' } }), 403);
    expectManagementError(await app.inject({ method: 'PATCH', url: url(owner.id), headers: as(admin.id), payload: { role: 'member' } }), 403);
    // The last owner cannot step down.
    const alone = await app.inject({ method: 'PATCH', url: url(owner.id), headers: as(owner.id), payload: { role: 'admin' } });
    expect(String(expectManagementError(alone, 409).message)).toMatch(/^LAST_OWNER: /);
    // With a second owner, they can.
    expect((await app.inject({ method: 'PATCH', url: url(admin.id), headers: as(owner.id), payload: { role: 'owner' } })).statusCode).toBe(200);
    const stepDown = await app.inject({ method: 'PATCH', url: url(owner.id), headers: as(owner.id), payload: { role: 'member' } });
    expect(stepDown.statusCode, stepDown.body).toBe(200);
    expect((stepDown.json() as Member).role).toBe('member');
    // Now a plain member: refused before the body is even read.
    expectManagementError(await app.inject({ method: 'PATCH', url: url(member.id), headers: as(owner.id), payload: { role: 'member' } }), 403);
    expectManagementError(await app.inject({ method: 'PATCH', url: url(member.id), headers: as(owner.id), payload: { nope: 1 } }), 403);

    for (const body of [{}, { role: 'root' }, { role: 'admin', extra: 1 }, { role: null }]) {
      expectManagementError(await app.inject({ method: 'PATCH', url: url(member.id), headers: as(admin.id), payload: body }), 400);
    }
    for (const missing of [tenant.outsider.id, 'usr_01JZZZZZZZZZZZZZZZZZZZZZZZ']) {
      const res = await app.inject({ method: 'PATCH', url: url(missing), headers: as(admin.id), payload: { role: 'member' } });
      expect(String(expectManagementError(res, 404).message)).toMatch(/^MEMBER_NOT_FOUND: /);
    }
  });

  it('removes members within the rules', async () => {
    const { owner, admin, member, workspace } = await staffedWorkspace();
    const other = await newUser();
    await app.inject({ method: 'POST', url: members(workspace.id), headers: as(owner.id), payload: { userId: other.id, role: 'member' } });
    const url = (userId: string) => `${members(workspace.id)}/${userId}`;

    // A member removes nobody else, but may leave.
    expectManagementError(await app.inject({ method: 'DELETE', url: url(other.id), headers: as(member.id) }), 403);
    const left = await app.inject({ method: 'DELETE', url: url(member.id), headers: as(member.id) });
    expect(left.statusCode, left.body).toBe(204);
    expect(left.body).toBe('');
    expectManagementError(await app.inject({ method: 'GET', url: `${BASE}/${workspace.id}`, headers: as(member.id) }), 403);

    // An admin removes members, not owners.
    expect((await app.inject({ method: 'DELETE', url: url(other.id), headers: as(admin.id) })).statusCode).toBe(204);
    expectManagementError(await app.inject({ method: 'DELETE', url: url(owner.id), headers: as(admin.id) }), 403);
    expectManagementError(await app.inject({ method: 'DELETE', url: url(other.id), headers: as(admin.id) }), 404);
    expectManagementError(await app.inject({ method: 'DELETE', url: url(owner.id), headers: as(tenant.outsider.id) }), 403);

    // The last owner can neither leave nor be removed; with another owner they can leave.
    const lastLeaves = await app.inject({ method: 'DELETE', url: url(owner.id), headers: as(owner.id) });
    expect(String(expectManagementError(lastLeaves, 409).message)).toMatch(/^LAST_OWNER: /);
    expect((await app.inject({ method: 'PATCH', url: url(admin.id), headers: as(owner.id), payload: { role: 'owner' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: url(owner.id), headers: as(owner.id) })).statusCode).toBe(204);
    const remaining = (await app.inject({ method: 'GET', url: members(workspace.id), headers: as(admin.id) })).json() as Page<Member>;
    expect(remaining.data.map((m) => [m.userId, m.role])).toEqual([[admin.id, 'owner']]);
  });

  it('never leaves a workspace ownerless under concurrent demotions', async () => {
    const { owner, admin, workspace } = await staffedWorkspace();
    const url = (userId: string) => `${members(workspace.id)}/${userId}`;
    expect((await app.inject({ method: 'PATCH', url: url(admin.id), headers: as(owner.id), payload: { role: 'owner' } })).statusCode).toBe(200);
    const results = await Promise.all([
      app.inject({ method: 'DELETE', url: url(owner.id), headers: as(owner.id) }),
      app.inject({ method: 'DELETE', url: url(admin.id), headers: as(admin.id) }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 409]);
    const [row] = await testDb.database.sql<{ owners: number }[]>`
      select count(*)::int as owners from workspace_members where workspace_id = ${workspace.id} and role = 'owner'`;
    expect(row!.owners).toBe(1);
  });
});
