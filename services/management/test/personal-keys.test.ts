import { API_KEY_PATTERN } from '@raffle/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { tokenFor } from './support/jwt.js';
import { registerSecret } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let tenant: Tenant;

const BASE = '/api/developer/personal/api-keys';
const MAX_KEYS = 3;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, { MAX_ACTIVE_KEYS_PER_USER: String(MAX_KEYS) });
  tenant = await seedTenant(testDb.database);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const as = (userId: string) => ({ authorization: `Bearer ${tokenFor(userId)}` });
type Created = { id: string; apiKey: string; name: string; scopes: string[]; prefix: string; lastFour: string; expiresAt?: string; revokedAt?: string };

async function create(userId: string, body: Record<string, unknown> = { name: 'ci', scopes: ['profile:read', 'wins:read'] }) {
  const res = await app.inject({ method: 'POST', url: BASE, headers: as(userId), payload: body });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json() as Created;
  registerSecret(created.apiKey);
  return created;
}

/** Keys neither revoked nor expired now, as the list shows them. */
async function activeKeys(userId: string): Promise<number> {
  const list = (await app.inject({ method: 'GET', url: BASE, headers: as(userId) })).json() as Created[];
  const now = Date.now();
  return list.filter((k) => !k.revokedAt && (!k.expiresAt || Date.parse(k.expiresAt) > now)).length;
}

describe('personal API keys', () => {
  it('create → list (no plaintext) → roll → revoke', async () => {
    const user = (await seedTenant(testDb.database)).owner.id;
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await create(user, { name: 'deploy bot', scopes: ['profile:read', 'entries:read'], expiresAt });
    expectSchema('CreatedApiKey', created);
    expect(created.apiKey).toMatch(API_KEY_PATTERN);
    expect(created.apiKey.startsWith('svc_u_')).toBe(true);
    expect(created.prefix).toBe(created.apiKey.slice(0, 12));
    expect(created.lastFour).toBe(created.apiKey.slice(-4));
    expect(created.expiresAt).toBe(expiresAt);
    expect(created).not.toHaveProperty('revokedAt');
    expect(created).not.toHaveProperty('lastUsedAt');

    const list = await app.inject({ method: 'GET', url: BASE, headers: as(user) });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.apiKey);
    expect(list.body).not.toContain('apiKey');
    const records = list.json() as Array<Record<string, unknown>>;
    expect(records.map((r) => r.id)).toEqual([created.id]);
    for (const r of records) expectSchema('ApiKeyRecord', r);

    const rolled = await app.inject({ method: 'POST', url: `${BASE}/${created.id}/roll`, headers: as(user), payload: { expireOldInSeconds: 3600 } });
    expect(rolled.statusCode, rolled.body).toBe(201);
    const next = rolled.json() as Created;
    registerSecret(next.apiKey);
    expectSchema('CreatedApiKey', next);
    expect(next.id).not.toBe(created.id);
    expect(next.apiKey).not.toBe(created.apiKey);
    expect(next.name).toBe('deploy bot');
    expect(next.scopes).toEqual(['profile:read', 'entries:read']);

    const afterRoll = (await app.inject({ method: 'GET', url: BASE, headers: as(user) })).json() as Created[];
    expect(afterRoll.map((r) => r.id)).toEqual([next.id, created.id]);
    const old = afterRoll[1]!;
    const oldEnd = Date.parse(old.expiresAt!);
    expect(oldEnd).toBeGreaterThan(Date.now() + 3500_000);
    expect(oldEnd).toBeLessThanOrEqual(Date.now() + 3600_000);
    expect(old).not.toHaveProperty('revokedAt');

    const revoked = await app.inject({ method: 'DELETE', url: `${BASE}/${next.id}`, headers: as(user) });
    expect(revoked.statusCode).toBe(200);
    const record = revoked.json() as Created;
    expectSchema('ApiKeyRecord', record);
    expect(record.revokedAt).toBeDefined();
    expect(revoked.body).not.toContain('apiKey');

    const again = await app.inject({ method: 'DELETE', url: `${BASE}/${next.id}`, headers: as(user) });
    expect(again.statusCode).toBe(200);
    expect((again.json() as Created).revokedAt).toBe(record.revokedAt);

    expectManagementError(await app.inject({ method: 'POST', url: `${BASE}/${next.id}/roll`, headers: as(user), payload: {} }), 409);
  });

  it('roll with no body revokes the old key at once', async () => {
    const user = (await seedTenant(testDb.database)).owner.id;
    const created = await create(user);
    const rolled = await app.inject({ method: 'POST', url: `${BASE}/${created.id}/roll`, headers: as(user) });
    expect(rolled.statusCode, rolled.body).toBe(201);
    registerSecret((rolled.json() as Created).apiKey);
    const list = (await app.inject({ method: 'GET', url: BASE, headers: as(user) })).json() as Created[];
    expect(list.find((r) => r.id === created.id)!.revokedAt).toBeDefined();
  });

  it('refuses to roll an expired key (409)', async () => {
    const user = (await seedTenant(testDb.database)).owner.id;
    const created = await create(user);
    const rolled = await app.inject({ method: 'POST', url: `${BASE}/${created.id}/roll`, headers: as(user), payload: { expireOldInSeconds: 1 } });
    registerSecret((rolled.json() as Created).apiKey);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expectManagementError(await app.inject({ method: 'POST', url: `${BASE}/${created.id}/roll`, headers: as(user), payload: {} }), 409);
  });

  it('lists newest first and only the caller\'s personal keys', async () => {
    const t = await seedTenant(testDb.database);
    const a = await create(t.owner.id, { name: 'first', scopes: ['profile:read'] });
    const b = await create(t.owner.id, { name: 'second', scopes: ['profile:read'] });
    await create(t.outsider.id, { name: 'theirs', scopes: ['profile:read'] });
    const ws = await app.inject({
      method: 'POST',
      url: `/api/developer/workspaces/${t.workspace.id}/api-keys`,
      headers: as(t.owner.id),
      payload: { name: 'workspace', scopes: ['raffles:read'] },
    });
    registerSecret((ws.json() as Created).apiKey);
    const list = (await app.inject({ method: 'GET', url: BASE, headers: as(t.owner.id) })).json() as Created[];
    expect(list.map((r) => r.id)).toEqual([b.id, a.id]);
  });

  it('isolates users: another user\'s key is 404 to revoke and to roll', async () => {
    const t = await seedTenant(testDb.database);
    const mine = await create(t.owner.id);
    expectManagementError(await app.inject({ method: 'DELETE', url: `${BASE}/${mine.id}`, headers: as(t.outsider.id) }), 404);
    expectManagementError(await app.inject({ method: 'POST', url: `${BASE}/${mine.id}/roll`, headers: as(t.outsider.id), payload: {} }), 404);
    expectManagementError(await app.inject({ method: 'DELETE', url: `${BASE}/key_01JZZZZZZZZZZZZZZZZZZZZZZZ`, headers: as(t.owner.id) }), 404);
    expectManagementError(await app.inject({ method: 'DELETE', url: `${BASE}/not-an-id`, headers: as(t.owner.id) }), 404);
    const theirs = (await app.inject({ method: 'GET', url: BASE, headers: as(t.outsider.id) })).json() as Created[];
    expect(theirs).toEqual([]);
    const still = (await app.inject({ method: 'GET', url: BASE, headers: as(t.owner.id) })).json() as Created[];
    expect(still[0]!.revokedAt).toBeUndefined();
  });

  it(`caps active personal keys at MAX_ACTIVE_KEYS_PER_USER (409), counting only active ones`, async () => {
    const user = (await seedTenant(testDb.database)).owner.id;
    const keys = [];
    for (let i = 0; i < MAX_KEYS; i++) keys.push(await create(user));
    expectManagementError(await app.inject({ method: 'POST', url: BASE, headers: as(user), payload: { name: 'one more', scopes: ['profile:read'] } }), 409);
    await app.inject({ method: 'DELETE', url: `${BASE}/${keys[0]!.id}`, headers: as(user) });
    await create(user);
  });

  it('holds the cap under concurrent creation', async () => {
    const user = (await seedTenant(testDb.database)).owner.id;
    const results = await Promise.all(
      Array.from({ length: MAX_KEYS + 3 }, () => app.inject({ method: 'POST', url: BASE, headers: as(user), payload: { name: 'race', scopes: ['profile:read'] } })),
    );
    for (const r of results) if (r.statusCode === 201) registerSecret((r.json() as Created).apiKey);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(MAX_KEYS);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(3);
  });

  it('counts a roll whose old key keeps working against the cap (409 API_KEY_LIMIT); a roll that revokes it at once is not capped', async () => {
    const user = (await seedTenant(testDb.database)).owner.id;
    const first = await create(user);
    for (let i = 1; i < MAX_KEYS; i++) {
      const rolled = await app.inject({ method: 'POST', url: `${BASE}/${first.id}/roll`, headers: as(user), payload: { expireOldInSeconds: 3600 } });
      expect(rolled.statusCode, rolled.body).toBe(201);
      registerSecret((rolled.json() as Created).apiKey);
    }
    const overCap = await app.inject({ method: 'POST', url: `${BASE}/${first.id}/roll`, headers: as(user), payload: { expireOldInSeconds: 3600 } });
    expectManagementError(overCap, 409);
    expect(overCap.json().message).toMatch(/^API_KEY_LIMIT: /);
    expect(await activeKeys(user)).toBe(MAX_KEYS);

    const replaced = await app.inject({ method: 'POST', url: `${BASE}/${first.id}/roll`, headers: as(user), payload: { expireOldInSeconds: 0 } });
    expect(replaced.statusCode, replaced.body).toBe(201);
    registerSecret((replaced.json() as Created).apiKey);
    expect(await activeKeys(user)).toBe(MAX_KEYS);
  });

  it('holds the cap under concurrent rolls that keep their old keys working', async () => {
    const user = (await seedTenant(testDb.database)).owner.id;
    const a = await create(user);
    const b = await create(user);
    const rolls = await Promise.all(
      [a, b, a, b, a, b].map((key) =>
        app.inject({ method: 'POST', url: `${BASE}/${key.id}/roll`, headers: as(user), payload: { expireOldInSeconds: 3600 } }),
      ),
    );
    for (const r of rolls) if (r.statusCode === 201) registerSecret((r.json() as Created).apiKey);
    expect(rolls.filter((r) => r.statusCode === 201)).toHaveLength(MAX_KEYS - 2);
    expect(rolls.filter((r) => r.statusCode === 409)).toHaveLength(6 - (MAX_KEYS - 2));
    expect(await activeKeys(user)).toBe(MAX_KEYS);
  });

  it('answers capabilities from the contracts', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/developer/capabilities', headers: as(tenant.owner.id) });
    expect(res.statusCode).toBe(200);
    expectSchema('Capabilities', res.json());
    expect((res.json() as { workspaceApiScopes: string[] }).workspaceApiScopes).toContain('winners:read');
  });
});
