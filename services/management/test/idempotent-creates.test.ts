import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { uniqueSlug } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { tokenFor } from './support/jwt.js';
import { registerSecret } from './support/log-scan.js';
import { seedTenant } from './support/tenant.js';
import { LOCAL_SINK_CONFIG, LOCAL_URL } from './support/webhook-endpoints.js';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, LOCAL_SINK_CONFIG);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

type CreateCase = {
  name: string;
  url: (workspaceId: string) => string;
  body: () => Record<string, unknown>;
  /** What a second request changes in the body. */
  change: Record<string, unknown>;
  secretField?: string;
};

/** The three creates that honour Idempotency-Key (issue 23): keys and endpoints show a secret once, raffles none. */
const CREATES: CreateCase[] = [
  { name: 'personal API key', url: () => '/api/developer/personal/api-keys', body: () => ({ name: 'ci', scopes: ['profile:read'] }), change: { name: 'other' }, secretField: 'apiKey' },
  { name: 'workspace API key', url: (ws) => `/api/developer/workspaces/${ws}/api-keys`, body: () => ({ name: 'ci', scopes: ['raffles:read'] }), change: { name: 'other' }, secretField: 'apiKey' },
  {
    name: 'personal webhook endpoint',
    url: () => '/api/developer/personal/webhook-endpoints',
    body: () => ({ url: LOCAL_URL, eventTypes: ['win.selected'] }),
    change: { description: 'other' },
    secretField: 'secret',
  },
  {
    name: 'workspace webhook endpoint',
    url: (ws) => `/api/developer/workspaces/${ws}/webhook-endpoints`,
    body: () => ({ url: LOCAL_URL, eventTypes: ['raffle.published'] }),
    change: { description: 'other' },
    secretField: 'secret',
  },
  {
    name: 'raffle',
    url: (ws) => `/api/dashboard/workspaces/${ws}/raffles`,
    body: () => ({ slug: uniqueSlug(), title: 'A raffle', mechanic: 'raffle', allocationType: 'allowlist_gtd', visibility: 'public', spots: 2 }),
    change: { title: 'other' },
  },
];

function post(url: string, userId: string, payload: Record<string, unknown>, key?: string) {
  return app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${tokenFor(userId)}`, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload,
  });
}

function expectRefusal(res: Awaited<ReturnType<typeof post>>, status: number, code: string) {
  const body = expectManagementError(res, status);
  expect(body.message).toMatch(new RegExp(`^${code}: `));
}

describe.each(CREATES)('Idempotency-Key on creating a $name', (create) => {
  it('replays the first answer (status, body, secret) to the same user, and creates once', async () => {
    const tenant = await seedTenant(testDb.database);
    const url = create.url(tenant.workspace.id);
    const body = create.body();
    const key = randomUUID();
    const first = await post(url, tenant.owner.id, body, key);
    expect(first.statusCode, first.body).toBe(201);
    if (create.secretField) registerSecret(first.json()[create.secretField]);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    // Key order does not make another request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const replay = await post(url, tenant.owner.id, reordered, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    expect(replay.headers['x-request-id']).not.toBe(first.headers['x-request-id']);

    const withoutKey = await post(url, tenant.owner.id, create.body());
    expect(withoutKey.statusCode, withoutKey.body).toBe(201);
    expect(withoutKey.json().id).not.toBe(first.json().id);
  });

  it('refuses the same key with another body: 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const tenant = await seedTenant(testDb.database);
    const url = create.url(tenant.workspace.id);
    const key = randomUUID();
    const body = create.body();
    expect((await post(url, tenant.owner.id, body, key)).statusCode).toBe(201);
    expectRefusal(await post(url, tenant.owner.id, { ...body, ...create.change }, key), 409, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps users apart: another user with the same key gets an answer of their own', async () => {
    const first = await seedTenant(testDb.database);
    const second = await seedTenant(testDb.database);
    const key = randomUUID();
    const body = create.body();
    const mine = await post(create.url(first.workspace.id), first.owner.id, body, key);
    // The raffle's slug is per workspace, so the same body fits the other owner's workspace as well.
    const theirs = await post(create.url(second.workspace.id), second.owner.id, body, key);
    expect(mine.statusCode, mine.body).toBe(201);
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    if (create.secretField) expect(theirs.json()[create.secretField]).not.toBe(mine.json()[create.secretField]);
  });
});

describe('Idempotency-Key on management creates', () => {
  it('two parallel requests with one key create one key: the other waits (409 IN_PROGRESS, Retry-After) or replays', async () => {
    const tenant = await seedTenant(testDb.database);
    const key = randomUUID();
    const body = { name: 'parallel', scopes: ['profile:read'] };
    const answers = await Promise.all([1, 2, 3, 4].map(() => post('/api/developer/personal/api-keys', tenant.owner.id, body, key)));
    const created = answers.filter((a) => a.statusCode === 201);
    const waiting = answers.filter((a) => a.statusCode === 409);
    expect(created.length + waiting.length).toBe(answers.length);
    expect(new Set(created.map((a) => a.json().id)).size).toBe(1);
    for (const answer of waiting) {
      expectRefusal(answer, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
      expect(answer.headers['retry-after']).toBe('1');
    }
    const list = (await app.inject({ method: 'GET', url: '/api/developer/personal/api-keys', headers: { authorization: `Bearer ${tokenFor(tenant.owner.id)}` } })).json();
    expect(list.filter((k: { name: string }) => k.name === 'parallel')).toHaveLength(1);
  });

  it('a key is per route as well: the same key on another create is a reuse', async () => {
    const tenant = await seedTenant(testDb.database);
    const key = randomUUID();
    expect((await post('/api/developer/personal/api-keys', tenant.owner.id, { name: 'a', scopes: ['profile:read'] }, key)).statusCode).toBe(201);
    const endpoint = await post('/api/developer/personal/webhook-endpoints', tenant.owner.id, { url: LOCAL_URL, eventTypes: ['win.selected'] }, key);
    expectRefusal(endpoint, 409, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('stores no secret in plain text: neither the created key nor the client key is in the record', async () => {
    const tenant = await seedTenant(testDb.database);
    const key = `plain-${randomUUID()}`;
    const res = await post('/api/developer/personal/api-keys', tenant.owner.id, { name: 'sealed', scopes: ['profile:read'] }, key);
    const apiKey = res.json().apiKey as string;
    registerSecret(apiKey);
    const rows = await testDb.database.sql<{ key: string; response_body: string }[]>`
      select key, response_body from idempotency_records where api_key_id = ${tenant.owner.id}`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key).not.toContain(key);
    expect(rows[0]!.response_body).not.toContain(apiKey);
    expect(rows[0]!.response_body).not.toContain(res.json().id);
  });

  it('an answer sealed under a CURSOR_SECRET since changed is not replayed, nor is the create run again (409 IDEMPOTENCY_KEY_REUSED)', async () => {
    const tenant = await seedTenant(testDb.database);
    const key = randomUUID();
    const body = { name: 'before rotation', scopes: ['profile:read'] };
    const first = await post('/api/developer/personal/api-keys', tenant.owner.id, body, key);
    registerSecret(first.json().apiKey);
    const rotated = await buildTestApp(testDb.database, testDb.url, { ...LOCAL_SINK_CONFIG, CURSOR_SECRET: 'a-rotated-cursor-secret-0123456789' });
    try {
      const replay = await rotated.inject({
        method: 'POST',
        url: '/api/developer/personal/api-keys',
        headers: { authorization: `Bearer ${tokenFor(tenant.owner.id)}`, 'idempotency-key': key },
        payload: body,
      });
      expectRefusal(replay, 409, 'IDEMPOTENCY_KEY_REUSED');
    } finally {
      await rotated.close();
    }
  });

  it('refuses a malformed key before anything runs (400 INVALID_IDEMPOTENCY_KEY)', async () => {
    const tenant = await seedTenant(testDb.database);
    const res = await post('/api/developer/personal/api-keys', tenant.owner.id, { name: 'x', scopes: ['profile:read'] }, 'é'.repeat(3));
    expectRefusal(res, 400, 'INVALID_IDEMPOTENCY_KEY');
  });
});
