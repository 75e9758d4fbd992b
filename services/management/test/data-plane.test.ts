import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { buildDataPlaneApp } from './support/data-plane.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { tokenFor } from './support/jwt.js';
import { registerSecret, testLogStream } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let testDb: TestDatabase;
let management: FastifyInstance;
let dataPlane: FastifyInstance;
let tenant: Tenant;

beforeAll(async () => {
  testDb = await createTestDatabase();
  management = await buildTestApp(testDb.database, testDb.url);
  dataPlane = await buildDataPlaneApp(testDb.database, testDb.url, testLogStream);
  tenant = await seedTenant(testDb.database);
});

afterAll(async () => {
  await dataPlane?.close();
  await management?.close();
  await testDb?.drop();
});

const as = (userId: string) => ({ authorization: `Bearer ${tokenFor(userId)}` });
const me = (key: string) => dataPlane.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${key}` } });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('keys created by management on the data plane', () => {
  it('a new personal key works on /api/v1/me and is refused once revoked and the 1 s key cache has passed', async () => {
    const created = await management.inject({
      method: 'POST',
      url: '/api/developer/personal/api-keys',
      headers: as(tenant.owner.id),
      payload: { name: 'integration', scopes: ['profile:read'] },
    });
    expect(created.statusCode).toBe(201);
    const { id, apiKey } = created.json() as { id: string; apiKey: string };
    registerSecret(apiKey);

    const ok = await me(apiKey);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((ok.json() as { id: string }).id).toBe(tenant.owner.id);

    const revoked = await management.inject({ method: 'DELETE', url: `/api/developer/personal/api-keys/${id}`, headers: as(tenant.owner.id) });
    expect(revoked.statusCode).toBe(200);
    // The data plane may trust its cached verification for up to API_KEY_CACHE_TTL_MS.
    await wait(1100);
    const refused = await me(apiKey);
    expect(refused.statusCode).toBe(401);
    expect((refused.json() as { code: string }).code).toBe('API_KEY_REVOKED');
  });

  it('a rolled key works and the old one is refused (immediate roll)', async () => {
    const created = await management.inject({
      method: 'POST',
      url: '/api/developer/personal/api-keys',
      headers: as(tenant.owner.id),
      payload: { name: 'roll me', scopes: ['profile:read'] },
    });
    const old = created.json() as { id: string; apiKey: string };
    registerSecret(old.apiKey);
    const rolled = await management.inject({ method: 'POST', url: `/api/developer/personal/api-keys/${old.id}/roll`, headers: as(tenant.owner.id) });
    const next = rolled.json() as { apiKey: string };
    registerSecret(next.apiKey);
    expect((await me(next.apiKey)).statusCode).toBe(200);
    expect((await me(old.apiKey)).statusCode).toBe(401);
  });

  it('a workspace key created here reaches its workspace on the data plane', async () => {
    const created = await management.inject({
      method: 'POST',
      url: `/api/developer/workspaces/${tenant.workspace.id}/api-keys`,
      headers: as(tenant.admin.id),
      payload: { name: 'ws', scopes: ['raffles:read'] },
    });
    const { apiKey } = created.json() as { apiKey: string };
    registerSecret(apiKey);
    const res = await dataPlane.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${tenant.workspace.id}/raffles`,
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
