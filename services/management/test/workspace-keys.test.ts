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

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
  tenant = await seedTenant(testDb.database);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const as = (userId: string) => ({ authorization: `Bearer ${tokenFor(userId)}` });
const base = (workspaceId: string) => `/api/developer/workspaces/${workspaceId}/api-keys`;
type Created = { id: string; apiKey: string; scopes: string[]; revokedAt?: string };

async function createAs(userId: string, workspaceId = tenant.workspace.id) {
  const res = await app.inject({ method: 'POST', url: base(workspaceId), headers: as(userId), payload: { name: 'ws', scopes: ['raffles:read', 'winners:read'] } });
  if (res.statusCode === 201) registerSecret((res.json() as Created).apiKey);
  return res;
}

describe('workspace API keys', () => {
  it('owners and admins create, list, roll and revoke', async () => {
    for (const user of [tenant.owner, tenant.admin]) {
      const res = await createAs(user.id);
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json() as Created;
      expectSchema('CreatedApiKey', created);
      expect(created.apiKey.startsWith('svc_w_')).toBe(true);
      const list = await app.inject({ method: 'GET', url: base(tenant.workspace.id), headers: as(user.id) });
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(created.apiKey);
      expect((list.json() as Created[]).map((r) => r.id)).toContain(created.id);
      const rolled = await app.inject({ method: 'POST', url: `${base(tenant.workspace.id)}/${created.id}/roll`, headers: as(user.id), payload: { expireOldInSeconds: 0 } });
      expect(rolled.statusCode, rolled.body).toBe(201);
      const next = rolled.json() as Created;
      registerSecret(next.apiKey);
      expect(next.scopes).toEqual(['raffles:read', 'winners:read']);
      const revoked = await app.inject({ method: 'DELETE', url: `${base(tenant.workspace.id)}/${next.id}`, headers: as(user.id) });
      expect(revoked.statusCode).toBe(200);
      expect((revoked.json() as Created).revokedAt).toBeDefined();
    }
  });

  it('an admin manages keys another admin created', async () => {
    const created = (await createAs(tenant.owner.id)).json() as Created;
    const res = await app.inject({ method: 'DELETE', url: `${base(tenant.workspace.id)}/${created.id}`, headers: as(tenant.admin.id) });
    expect(res.statusCode).toBe(200);
  });

  it('members, outsiders and unknown workspaces get 403 on every route', async () => {
    const created = (await createAs(tenant.owner.id)).json() as Created;
    const cases: Array<[string, string]> = [
      [tenant.member.id, tenant.workspace.id],
      [tenant.outsider.id, tenant.workspace.id],
      [tenant.owner.id, tenant.otherWorkspace.id],
      [tenant.owner.id, 'wks_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
      [tenant.owner.id, 'not-a-workspace'],
    ];
    for (const [user, workspaceId] of cases) {
      expectManagementError(await createAs(user, workspaceId), 403);
      expectManagementError(await app.inject({ method: 'GET', url: base(workspaceId), headers: as(user) }), 403);
      expectManagementError(await app.inject({ method: 'DELETE', url: `${base(workspaceId)}/${created.id}`, headers: as(user) }), 403);
      expectManagementError(await app.inject({ method: 'POST', url: `${base(workspaceId)}/${created.id}/roll`, headers: as(user), payload: {} }), 403);
      // Forbidden comes before body validation: a bad body tells a non-manager nothing.
      expectManagementError(await app.inject({ method: 'POST', url: base(workspaceId), headers: as(user), payload: { nope: 1 } }), 403);
    }
  });

  it("a workspace's key is 404 through another workspace the caller manages", async () => {
    const created = (await createAs(tenant.owner.id)).json() as Created;
    const res = await app.inject({ method: 'DELETE', url: `${base(tenant.otherWorkspace.id)}/${created.id}`, headers: as(tenant.outsider.id) });
    expectManagementError(res, 404);
  });

  it('validates scopes against the workspace set', async () => {
    for (const scopes of [['profile:read'], ['wins:read', 'raffles:read'], ['entries:write'], ['admin:all']]) {
      const res = await app.inject({ method: 'POST', url: base(tenant.workspace.id), headers: as(tenant.owner.id), payload: { name: 'x', scopes } });
      expectManagementError(res, 400);
    }
  });

  it('personal key routes never list workspace keys', async () => {
    await createAs(tenant.owner.id);
    const list = (await app.inject({ method: 'GET', url: '/api/developer/personal/api-keys', headers: as(tenant.owner.id) })).json() as Created[];
    expect(list).toEqual([]);
  });
});
