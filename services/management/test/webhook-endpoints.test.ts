import { PERSONAL_WEBHOOK_EVENTS, WORKSPACE_WEBHOOK_EVENTS } from '@raffle/contracts';
import { loggerOptions } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp, testConfig } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { registerSecret } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';
import {
  as,
  createEndpoint,
  freshOwners,
  LOCAL_SINK_CONFIG,
  LOCAL_URL,
  PERSONAL_BASE,
  workspaceBase,
  type CreatedEndpoint,
  type EndpointRecord,
  type OwnerCase,
  type Page,
} from './support/webhook-endpoints.js';

let testDb: TestDatabase;
/** Accepts loopback sinks (allow-list + http), as tests and local development configure it. */
let app: ManagementApp;
/** The production defaults: https only, public addresses only. */
let strictApp: FastifyInstance;
let tenant: Tenant;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, LOCAL_SINK_CONFIG);
  strictApp = await buildTestApp(testDb.database, testDb.url);
  tenant = await seedTenant(testDb.database);
});

afterAll(async () => {
  await app?.close();
  await strictApp?.close();
  await testDb?.drop();
});

type StoredEndpoint = {
  owner_kind: string;
  user_id: string | null;
  workspace_id: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | Date | null;
};
const storedEndpoint = async (id: string) =>
  (
    await testDb.database.sql<StoredEndpoint[]>`
      select owner_kind, user_id, workspace_id, secret, previous_secret, previous_secret_expires_at from webhook_endpoints where id = ${id}`
  )[0]!;

const ownerCases = async () => {
  const owners = await freshOwners(testDb.database);
  return [owners.personal, owners.workspace];
};

describe.each(['personal', 'workspace'] as const)('%s webhook endpoints', (kind) => {
  let owner: OwnerCase;
  beforeAll(async () => {
    owner = (await freshOwners(testDb.database))[kind];
  });

  it('creates, lists, gets, patches and deletes', async () => {
    const created = await createEndpoint(app, owner, { description: 'Production sink', eventTypes: [owner.ownEvent, 'entry.created'] });
    expect(created).toMatchObject({ url: LOCAL_URL, description: 'Production sink', eventTypes: [owner.ownEvent, 'entry.created'], enabled: true });
    expect(created.id).toMatch(/^whe_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    for (const absent of ['disabledReason', 'disabledAt', 'failingSince', 'secretRotatedAt']) expect(created).not.toHaveProperty(absent);
    const stored = await storedEndpoint(created.id);
    expect(stored.secret).toBe(created.secret);
    if (kind === 'personal') expect(stored).toMatchObject({ owner_kind: 'personal', user_id: owner.userId, workspace_id: null });
    else expect(stored).toMatchObject({ owner_kind: 'workspace', user_id: null });

    const list = await app.inject({ method: 'GET', url: owner.base, headers: as(owner.userId) });
    expect(list.statusCode, list.body).toBe(200);
    expectSchema('WebhookEndpointPage', list.json());
    const { secret, ...record } = created;
    expect((list.json() as Page<EndpointRecord>).data).toContainEqual(record);

    const got = await app.inject({ method: 'GET', url: `${owner.base}/${created.id}`, headers: as(owner.userId) });
    expect(got.statusCode).toBe(200);
    expectSchema('WebhookEndpoint', got.json());
    expect(got.json()).toEqual(record);
    for (const raw of [list.body, got.body]) {
      expect(raw).not.toContain(secret);
      expect(raw).not.toContain('whsec_');
      expect(raw).not.toContain('"secret"');
    }

    const patched = await app.inject({
      method: 'PATCH',
      url: `${owner.base}/${created.id}`,
      headers: as(owner.userId),
      payload: { url: 'http://127.0.0.1:8080/other', description: null, eventTypes: [owner.ownEvent] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expectSchema('WebhookEndpoint', patched.json());
    const after = patched.json() as EndpointRecord;
    expect(after).toMatchObject({ url: 'http://127.0.0.1:8080/other', eventTypes: [owner.ownEvent], enabled: true });
    expect(after).not.toHaveProperty('description');
    expect(after).not.toHaveProperty('secret');
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

    const deleted = await app.inject({ method: 'DELETE', url: `${owner.base}/${created.id}`, headers: as(owner.userId) });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expectManagementError(await app.inject({ method: 'GET', url: `${owner.base}/${created.id}`, headers: as(owner.userId) }), 404);
    expectManagementError(await app.inject({ method: 'DELETE', url: `${owner.base}/${created.id}`, headers: as(owner.userId) }), 404);
  });

  it('creates a disabled endpoint on request and re-enabling forgets its failures', async () => {
    const created = await createEndpoint(app, owner, { enabled: false });
    expect(created).toMatchObject({ enabled: false, disabledReason: 'Disabled manually' });
    expect(created.disabledAt).toBeDefined();
    await testDb.database.sql`update webhook_endpoints set failing_since = now() - interval '2 days', disabled_reason = 'the endpoint answered 410 Gone' where id = ${created.id}`;
    const failing = (await app.inject({ method: 'GET', url: `${owner.base}/${created.id}`, headers: as(owner.userId) })).json() as EndpointRecord;
    expect(failing).toMatchObject({ enabled: false, disabledReason: 'the endpoint answered 410 Gone' });
    expect(failing.failingSince).toBeDefined();

    const enabled = await app.inject({ method: 'PATCH', url: `${owner.base}/${created.id}`, headers: as(owner.userId), payload: { enabled: true } });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const record = enabled.json() as EndpointRecord;
    expect(record.enabled).toBe(true);
    for (const cleared of ['disabledReason', 'disabledAt', 'failingSince']) expect(record).not.toHaveProperty(cleared);

    const disabled = (
      await app.inject({ method: 'PATCH', url: `${owner.base}/${created.id}`, headers: as(owner.userId), payload: { enabled: false } })
    ).json() as EndpointRecord;
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'Disabled manually' });
    expect(disabled.disabledAt).toBeDefined();
  });

  it('a patch that changes nothing writes nothing', async () => {
    const created = await createEndpoint(app, owner);
    const res = await app.inject({ method: 'PATCH', url: `${owner.base}/${created.id}`, headers: as(owner.userId), payload: { enabled: true, url: LOCAL_URL } });
    expect(res.statusCode).toBe(200);
    expect((res.json() as EndpointRecord).updatedAt).toBe(created.updatedAt);
  });

  it('rotates the secret; the previous one keeps signing for 24 hours', async () => {
    const created = await createEndpoint(app, owner);
    const before = Date.now();
    const first = await app.inject({ method: 'POST', url: `${owner.base}/${created.id}/rotate-secret`, headers: as(owner.userId) });
    expect(first.statusCode, first.body).toBe(200);
    const rotated = first.json() as CreatedEndpoint;
    registerSecret(rotated.secret);
    expectSchema('CreatedWebhookEndpoint', rotated);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.id).toBe(created.id);
    expect(rotated.secretRotatedAt).toBeDefined();
    expect(Math.abs(Date.parse(rotated.secretRotatedAt!) - before)).toBeLessThan(10_000);
    let stored = await storedEndpoint(created.id);
    expect(stored.secret).toBe(rotated.secret);
    expect(stored.previous_secret).toBe(created.secret);
    const expiry = new Date(stored.previous_secret_expires_at!).getTime() - before;
    expect(expiry).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(expiry).toBeLessThan(24 * 3600_000 + 10_000);

    // A second rotation within the 24 hours: the then-current secret becomes the previous one.
    const second = (await app.inject({ method: 'POST', url: `${owner.base}/${created.id}/rotate-secret`, headers: as(owner.userId), payload: {} })).json() as CreatedEndpoint;
    registerSecret(second.secret);
    stored = await storedEndpoint(created.id);
    expect(stored.secret).toBe(second.secret);
    expect(stored.previous_secret).toBe(rotated.secret);

    const got = await app.inject({ method: 'GET', url: `${owner.base}/${created.id}`, headers: as(owner.userId) });
    for (const secret of [created.secret, rotated.secret, second.secret]) expect(got.body).not.toContain(secret);
    expect((got.json() as EndpointRecord).secretRotatedAt).toBe(second.secretRotatedAt);

    expectManagementError(
      await app.inject({ method: 'POST', url: `${owner.base}/${created.id}/rotate-secret`, headers: as(owner.userId), payload: { graceSeconds: 5 } }),
      400,
    );
  });

  it(`validates event types against the ${kind} list`, async () => {
    const allowed = kind === 'personal' ? PERSONAL_WEBHOOK_EVENTS : WORKSPACE_WEBHOOK_EVENTS;
    const all = await createEndpoint(app, owner, { eventTypes: [...allowed] });
    expect(all.eventTypes).toEqual([...allowed]);
    const refused: Array<[string, unknown]> = [
      ['another kind', [owner.otherKindEvent]],
      ['an unknown type', ['raffle.exploded']],
      ['a mix', [owner.ownEvent, owner.otherKindEvent]],
      ['a repeat', [owner.ownEvent, owner.ownEvent]],
      ['none', []],
      ['a non-string', [5]],
      ['not an array', owner.ownEvent],
    ];
    for (const [name, eventTypes] of refused) {
      const res = await app.inject({ method: 'POST', url: owner.base, headers: as(owner.userId), payload: { url: LOCAL_URL, eventTypes } });
      const body = expectManagementError(res, 400);
      if (name === 'another kind') expect(String(body.message)).toContain(`not available on ${kind} endpoints`);
      if (name === 'an unknown type') expect(String(body.message)).toContain('unknown');
      const patch = await app.inject({ method: 'PATCH', url: `${owner.base}/${all.id}`, headers: as(owner.userId), payload: { eventTypes } });
      expectManagementError(patch, 400);
    }
  });

  it('allows at most 20 endpoints per owner', async () => {
    const owners = await freshOwners(testDb.database);
    const crowded = owners[kind];
    for (let i = 0; i < 20; i++) await createEndpoint(app, crowded, { description: `#${i}` });
    const res = await app.inject({ method: 'POST', url: crowded.base, headers: as(crowded.userId), payload: { url: LOCAL_URL, eventTypes: [crowded.ownEvent] } });
    const body = expectManagementError(res, 409);
    expect(String(body.message)).toContain('at most 20');
    // The cap counts one owner's endpoints: the same user's other kind still has room.
    await createEndpoint(app, owners[kind === 'personal' ? 'workspace' : 'personal']);
  });

  it('walks every page, newest first, with signed cursors', async () => {
    const paged = (await freshOwners(testDb.database))[kind];
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createEndpoint(app, paged)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await app.inject({ method: 'GET', url: `${paged.base}?${query}`, headers: as(paged.userId) });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Page<EndpointRecord>;
      expectSchema('WebhookEndpointPage', page);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.pagination.nextCursor;
      expect(page.pagination.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].sort().reverse());

    const first = (await app.inject({ method: 'GET', url: `${paged.base}?limit=1`, headers: as(paged.userId) })).json() as Page<EndpointRecord>;
    const cursorOfPaged = first.pagination.nextCursor!;
    expect(first.data).toHaveLength(1);
    const defaultPage = (await app.inject({ method: 'GET', url: paged.base, headers: as(paged.userId) })).json() as Page<EndpointRecord>;
    expect(defaultPage.data).toHaveLength(7);
    // Another owner's list, a tampered cursor, bad limits.
    expectManagementError(await app.inject({ method: 'GET', url: `${owner.base}?cursor=${encodeURIComponent(cursorOfPaged)}`, headers: as(owner.userId) }), 400);
    expectManagementError(await app.inject({ method: 'GET', url: `${paged.base}?cursor=${encodeURIComponent(`${cursorOfPaged}x`)}`, headers: as(paged.userId) }), 400);
    for (const limit of ['0', '101', '1.5', '-1', 'abc']) {
      expectManagementError(await app.inject({ method: 'GET', url: `${paged.base}?limit=${limit}`, headers: as(paged.userId) }), 400);
    }
    expectManagementError(await app.inject({ method: 'GET', url: `${paged.base}?order=asc`, headers: as(paged.userId) }), 400);
  });

  it('refuses malformed bodies', async () => {
    const created = await createEndpoint(app, owner);
    const badCreates: Array<[string, unknown]> = [
      ['no url', { eventTypes: [owner.ownEvent] }],
      ['no eventTypes', { url: LOCAL_URL }],
      ['an unknown field', { url: LOCAL_URL, eventTypes: [owner.ownEvent], secret: 'whsec_mine' }],
      ['a numeric url', { url: 5, eventTypes: [owner.ownEvent] }],
      ['an empty url', { url: '', eventTypes: [owner.ownEvent] }],
      ['a 2049-character url', { url: `http://127.0.0.1/${'a'.repeat(2032)}`, eventTypes: [owner.ownEvent] }],
      ['a string enabled', { url: LOCAL_URL, eventTypes: [owner.ownEvent], enabled: 'yes' }],
      ['a 501-character description', { url: LOCAL_URL, eventTypes: [owner.ownEvent], description: 'd'.repeat(501) }],
      ['an array', [{ url: LOCAL_URL, eventTypes: [owner.ownEvent] }]],
    ];
    for (const [name, payload] of badCreates) {
      const res = await app.inject({ method: 'POST', url: owner.base, headers: as(owner.userId), payload: payload as object });
      expect(res.statusCode, name).toBe(400);
      expectManagementError(res, 400);
    }
    const notJson = await app.inject({ method: 'POST', url: owner.base, headers: { ...as(owner.userId), 'content-type': 'application/json' }, payload: '{"url":' });
    expectManagementError(notJson, 400);
    const badPatches: Array<[string, unknown]> = [
      ['nothing', {}],
      ['an unknown field', { secret: 'whsec_x' }],
      ['a null url', { url: null }],
      ['a null enabled', { enabled: null }],
    ];
    for (const [name, payload] of badPatches) {
      const res = await app.inject({ method: 'PATCH', url: `${owner.base}/${created.id}`, headers: as(owner.userId), payload: payload as object });
      expect(res.statusCode, name).toBe(400);
      expectManagementError(res, 400);
    }
  });
});

describe('endpoint URLs', () => {
  const refused: Array<[string, string, RegExp]> = [
    ['http without the development setting', 'http://93.184.215.14/hook', /https/],
    ['a loopback address', 'https://127.0.0.1/hook', /loopback/],
    ['IPv6 loopback', 'https://[::1]/hook', /loopback/],
    ['a loopback address spelled as a number', 'https://2130706433/hook', /loopback/],
    ['a private address', 'https://10.1.2.3/hook', /private/],
    ['another private range', 'https://192.168.0.10:8443/hook', /private/],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data', /metadata/],
    ['a CGNAT address', 'https://100.64.0.1/hook', /cgnat/],
    ['localhost', 'https://localhost/hook', /internal/],
    ['user info', 'https://user:pass@93.184.215.14/hook', /credentials/],
    ['a username alone', 'https://user@93.184.215.14/hook', /credentials/],
    ['another scheme', 'ftp://93.184.215.14/hook', /scheme/],
    ['not a URL', 'hooks.example.com/raffle', /valid absolute URL/],
  ];
  for (const [name, url, reason] of refused) {
    it(`refuses ${name} (400 with the reason) without the allow-list`, async () => {
      for (const owner of await ownerCases()) {
        const res = await strictApp.inject({ method: 'POST', url: owner.base, headers: as(owner.userId), payload: { url, eventTypes: [owner.ownEvent] } });
        const body = expectManagementError(res, 400);
        expect(String(body.message)).toMatch(/^VALIDATION_FAILED: url is refused: /);
        expect(String(body.message)).toMatch(reason);
      }
    });
  }

  it('accepts a public https address and stores the URL as checked', async () => {
    const [personal] = await ownerCases();
    const created = await createEndpoint(strictApp, personal!, { url: 'https://93.184.215.14:8443/hooks/raffle?src=raffle' });
    expect(created.url).toBe('https://93.184.215.14:8443/hooks/raffle?src=raffle');
    const normalised = await createEndpoint(strictApp, personal!, { url: 'HTTPS://93.184.215.14/a/../hook' });
    expect(normalised.url).toBe('https://93.184.215.14/hook');
  });

  it('the allow-list admits only the hosts it names; a patch re-checks the URL', async () => {
    const [personal] = await ownerCases();
    const created = await createEndpoint(app, personal!);
    const res = await app.inject({ method: 'POST', url: personal!.base, headers: as(personal!.userId), payload: { url: 'http://10.0.0.7/hook', eventTypes: ['win.selected'] } });
    expectManagementError(res, 400);
    const patch = await app.inject({ method: 'PATCH', url: `${personal!.base}/${created.id}`, headers: as(personal!.userId), payload: { url: 'https://169.254.169.254/' } });
    expect(String(expectManagementError(patch, 400).message)).toMatch(/metadata/);
    // Loopback registered through the allow-list is still refused by a service without it.
    const strictPatch = await strictApp.inject({ method: 'PATCH', url: `${personal!.base}/${created.id}`, headers: as(personal!.userId), payload: { url: LOCAL_URL } });
    expectManagementError(strictPatch, 400);
  });
});

describe('access', () => {
  const ROUTE_SUFFIXES: Array<[method: 'GET' | 'POST' | 'PATCH' | 'DELETE', suffix: string, payload?: object]> = [
    ['POST', '', { url: LOCAL_URL, eventTypes: ['raffle.published'] }],
    ['GET', ''],
    ['GET', '/{endpoint}'],
    ['PATCH', '/{endpoint}', { description: 'x' }],
    ['DELETE', '/{endpoint}'],
    ['POST', '/{endpoint}/rotate-secret', {}],
    ['POST', '/{endpoint}/test', {}],
    ['GET', '/{endpoint}/deliveries'],
    ['POST', '/{endpoint}/deliveries/whd_01JZZZZZZZZZZZZZZZZZZZZZZZ/retry', {}],
    ['POST', '/{endpoint}/recover', { since: new Date().toISOString() }],
  ];

  it('registers ten routes for each owner kind, each documented', async () => {
    const routes = app.managedRoutes.filter((r) => r.url.includes('/webhook-endpoints'));
    expect(routes.filter((r) => r.url.startsWith(PERSONAL_BASE))).toHaveLength(ROUTE_SUFFIXES.length);
    expect(routes.filter((r) => r.url.startsWith('/api/developer/workspaces/'))).toHaveLength(ROUTE_SUFFIXES.length);
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    };
    const ops = doc.paths['/api/developer/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/test']!.post!;
    expect(ops.operationId).toBe('testWorkspaceWebhookEndpoint');
    expect(Object.keys(ops.responses).sort()).toEqual(['202', '400', '401', '403', '404', '409', '429', '500', '503']);
    expect(Object.keys(doc.paths['/api/developer/personal/webhook-endpoints/{endpointId}']!.delete!.responses)).toContain('204');
  });

  it('every route answers 401 without a session token', async () => {
    const routes = app.managedRoutes.filter((r) => r.url.includes('/webhook-endpoints'));
    expect(routes).toHaveLength(2 * ROUTE_SUFFIXES.length);
    for (const route of routes) {
      const url = route.url
        .replace(':workspaceId', tenant.workspace.id)
        .replace(':endpointId', 'whe_01JZZZZZZZZZZZZZZZZZZZZZZZ')
        .replace(':deliveryId', 'whd_01JZZZZZZZZZZZZZZZZZZZZZZZ');
      const res = await app.inject({ method: route.method as 'GET', url, ...(['POST', 'PATCH'].includes(route.method) ? { payload: {} } : {}) });
      expectManagementError(res, 401);
    }
  });

  it('members, outsiders and unknown workspaces get 403 on every workspace route, before the body is read', async () => {
    const created = await createEndpoint(app, {
      kind: 'workspace',
      base: workspaceBase(tenant.workspace.id),
      userId: tenant.owner.id,
      ownEvent: 'raffle.published',
      otherKindEvent: 'win.selected',
    });
    const cases: Array<[string, string]> = [
      [tenant.member.id, tenant.workspace.id],
      [tenant.outsider.id, tenant.workspace.id],
      [tenant.owner.id, tenant.otherWorkspace.id],
      [tenant.owner.id, 'wks_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
      [tenant.owner.id, 'not-a-workspace'],
    ];
    for (const [userId, workspaceId] of cases) {
      for (const [method, suffix, payload] of ROUTE_SUFFIXES) {
        const url = `${workspaceBase(workspaceId)}${suffix.replace('{endpoint}', created.id)}`;
        expectManagementError(await app.inject({ method, url, headers: as(userId), ...(payload ? { payload } : {}) }), 403);
        if (payload) expectManagementError(await app.inject({ method, url, headers: as(userId), payload: { nope: [1] } }), 403);
      }
    }
    // Admins manage the workspace's endpoints too.
    const asAdmin = await app.inject({ method: 'GET', url: `${workspaceBase(tenant.workspace.id)}/${created.id}`, headers: as(tenant.admin.id) });
    expect(asAdmin.statusCode).toBe(200);
  });

  it("another owner's endpoint, an unknown one and a malformed id are 404 on every endpoint route", async () => {
    const { personal, workspace } = await freshOwners(testDb.database);
    const mine = await createEndpoint(app, personal);
    const ours = await createEndpoint(app, workspace);
    const stranger = (await freshOwners(testDb.database)).personal;
    const otherWorkspace = { base: workspaceBase(tenant.otherWorkspace.id), userId: tenant.outsider.id };
    const cases: Array<[string, { base: string; userId: string }, string]> = [
      ["another user's personal endpoint", stranger, mine.id],
      ['a workspace endpoint through the personal routes', personal, ours.id],
      ['a personal endpoint through the workspace routes', workspace, mine.id],
      ["another workspace's endpoint", otherWorkspace, ours.id],
      ['an unknown endpoint', personal, 'whe_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
      ['a malformed id', workspace, 'not-an-endpoint'],
    ];
    for (const [name, who, endpointId] of cases) {
      for (const [method, suffix, payload] of ROUTE_SUFFIXES) {
        if (!suffix.includes('{endpoint}')) continue;
        const url = `${who.base}${suffix.replace('{endpoint}', endpointId)}`;
        const res = await app.inject({ method, url, headers: as(who.userId), ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${name}: ${method} ${suffix}`).toBe(404);
        expectManagementError(res, 404);
      }
    }
    // Nothing was changed through the refused routes.
    expect((await app.inject({ method: 'GET', url: `${personal.base}/${mine.id}`, headers: as(personal.userId) })).json()).not.toHaveProperty('description');
    expect((await storedEndpoint(mine.id)).secret).toBe(mine.secret);
  });

  it('personal lists never show workspace endpoints, nor another user their endpoints', async () => {
    const { personal, workspace } = await freshOwners(testDb.database);
    await createEndpoint(app, workspace);
    const list = (await app.inject({ method: 'GET', url: personal.base, headers: as(personal.userId) })).json() as Page<EndpointRecord>;
    expect(list.data).toEqual([]);
    const own = await createEndpoint(app, personal);
    const stranger = (await freshOwners(testDb.database)).personal;
    const theirs = (await app.inject({ method: 'GET', url: stranger.base, headers: as(stranger.userId) })).json() as Page<EndpointRecord>;
    expect(theirs.data.map((e) => e.id)).not.toContain(own.id);
  });
});

describe('configuration', () => {
  it('defaults to https and public addresses only', () => {
    const config = testConfig('postgres://x');
    expect(config.WEBHOOK_ALLOW_HTTP).toBe(false);
    expect(config.WEBHOOK_ALLOWED_HOSTS).toBe('');
    expect(testConfig('postgres://x', LOCAL_SINK_CONFIG)).toMatchObject({ WEBHOOK_ALLOW_HTTP: true, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    expect(() => testConfig('postgres://x', { WEBHOOK_ALLOW_HTTP: 'sometimes' })).toThrow(/WEBHOOK_ALLOW_HTTP/);
  });
});

describe('secrets in logs', () => {
  it('pino redaction censors a `secret` field, top-level or one level down', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const options = loggerOptions({ level: 'info', stream }) as { redact: pino.LoggerOptions['redact'] };
    const logger = pino({ redact: options.redact }, stream);
    const secret = registerSecret(`whsec_${'A'.repeat(43)}=`);
    logger.info({ secret }, 'top level');
    logger.info({ res: { secret }, payload: { secret } }, 'nested');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(line).toContain('[redacted]');
    }
  });
});
