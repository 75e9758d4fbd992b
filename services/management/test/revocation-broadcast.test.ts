import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { buildDataPlaneApp } from './support/data-plane.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { tokenFor } from './support/jwt.js';
import { registerSecret, testLogStream } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * Two data-plane instances whose key cache would trust a verified key for ten minutes: only
 * the NATS broadcast from management can make them refuse a revoked key within a second.
 */
let testDb: TestDatabase;
let management: FastifyInstance;
const dataPlanes: FastifyInstance[] = [];
let tenant: Tenant;

const LONG_CACHE = { API_KEY_CACHE_TTL_MS: 600_000 };
const REVOCATION_DEADLINE_MS = 1000;

beforeAll(async () => {
  testDb = await createTestDatabase();
  management = await buildTestApp(testDb.database, testDb.url);
  for (let i = 0; i < 2; i++) dataPlanes.push(await buildDataPlaneApp(testDb.database, testDb.url, testLogStream, LONG_CACHE));
  tenant = await seedTenant(testDb.database);
  await waitFor(() => management.nats.isConnected() && dataPlanes.every((d) => d.nats.isConnected()), 5000);
});

afterAll(async () => {
  for (const app of dataPlanes) await app.close();
  await management?.close();
  await testDb?.drop();
});

async function waitFor(condition: () => boolean | Promise<boolean>, deadlineMs: number): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

const as = (userId: string) => ({ authorization: `Bearer ${tokenFor(userId)}` });
const statusOn = async (app: FastifyInstance, key: string) =>
  (await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${key}` } })).statusCode;

async function createKey(): Promise<{ id: string; apiKey: string }> {
  const created = await management.inject({
    method: 'POST',
    url: '/api/developer/personal/api-keys',
    headers: as(tenant.owner.id),
    payload: { name: 'broadcast', scopes: ['profile:read'] },
  });
  expect(created.statusCode).toBe(201);
  const body = created.json() as { id: string; apiKey: string };
  registerSecret(body.apiKey);
  return body;
}

describe('revocation broadcast', () => {
  it('refuses a revoked key on every data-plane instance within 1 s, despite their long caches', async () => {
    const key = await createKey();
    for (const app of dataPlanes) expect(await statusOn(app, key.apiKey)).toBe(200);

    const revoked = await management.inject({ method: 'DELETE', url: `/api/developer/personal/api-keys/${key.id}`, headers: as(tenant.owner.id) });
    expect(revoked.statusCode).toBe(200);

    const refusedEverywhere = await waitFor(
      async () => (await Promise.all(dataPlanes.map((app) => statusOn(app, key.apiKey)))).every((s) => s === 401),
      REVOCATION_DEADLINE_MS,
    );
    expect(refusedEverywhere).toBe(true);
    const body = (await dataPlanes[0]!.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${key.apiKey}` } })).json();
    expect(body.code).toBe('API_KEY_REVOKED');
  });

  it('re-reads a rolled key so its new expiry applies everywhere', async () => {
    const key = await createKey();
    for (const app of dataPlanes) expect(await statusOn(app, key.apiKey)).toBe(200);
    const rolled = await management.inject({
      method: 'POST',
      url: `/api/developer/personal/api-keys/${key.id}/roll`,
      headers: as(tenant.owner.id),
      payload: { expireOldInSeconds: 0 },
    });
    expect(rolled.statusCode).toBe(201);
    registerSecret((rolled.json() as { apiKey: string }).apiKey);
    const refusedEverywhere = await waitFor(
      async () => (await Promise.all(dataPlanes.map((app) => statusOn(app, key.apiKey)))).every((s) => s === 401),
      REVOCATION_DEADLINE_MS,
    );
    expect(refusedEverywhere).toBe(true);
  });

  it('keeps serving keys that were not revoked', async () => {
    const key = await createKey();
    const other = await createKey();
    await management.inject({ method: 'DELETE', url: `/api/developer/personal/api-keys/${other.id}`, headers: as(tenant.owner.id) });
    for (const app of dataPlanes) expect(await statusOn(app, key.apiKey)).toBe(200);
  });
});
