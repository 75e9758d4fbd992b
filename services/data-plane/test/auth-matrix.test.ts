import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlaneApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { capturedLogLines } from './support/log-scan.js';
import { authorizedStatuses, concreteBody, concreteUrl } from './support/route-urls.js';
import { seedTenant, type Tenant } from './support/tenant.js';
import { generateApiKey } from '@raffle/contracts';
import authPlugin from '../src/plugins/auth.js';

let db: TestDatabase;
let app: DataPlaneApp;
let tenant: Tenant;

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database);
  app = await buildTestApp(db.database, db.url);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

/** Sends the route's body too, where it takes one: what an authorized caller sends. */
const call = (method: string, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: method as 'GET', url, headers, payload: concreteBody(method)?.(tenant) });

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function expectError(res: { statusCode: number; json: () => { code: string; statusCode: number } }, status: number, code: string) {
  expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
  expect(res.json().statusCode).toBe(status);
}

describe('the route table', () => {
  it('covers every /api/v1 route of the spec and product.md', () => {
    const routes = app.routeAccessTable.map((r) => `${r.method} ${r.url} ${r.access.keyType} ${r.access.scope}`).sort();
    expect(routes).toEqual(
      [
        'GET /api/v1/entries personal entries:read',
        'GET /api/v1/me personal profile:read',
        'GET /api/v1/raffles personal raffles:read',
        'GET /api/v1/raffles/:slug personal raffles:read',
        'GET /api/v1/raffles/:slug/draw personal raffles:read',
        'GET /api/v1/raffles/:slug/entries/me personal entries:read',
        'POST /api/v1/raffles/:slug/entries personal entries:write',
        'DELETE /api/v1/raffles/:slug/entries/me personal entries:write',
        'GET /api/v1/wins personal wins:read',
        'GET /api/v1/raffles/:slug/allowlist/proof personal wins:read',
        'PUT /api/v1/raffles/:slug/allowlist/wallet personal entries:write',
        'GET /api/v1/workspaces/:workspaceId/raffles/:raffleId/allowlist workspace winners:read',
        'GET /api/v1/workspaces/:workspaceId/raffles/:raffleId/allowlist/leaves workspace winners:read',
        'GET /api/v1/workspaces/:workspaceId/projects workspace projects:read',
        'GET /api/v1/workspaces/:workspaceId/projects/:projectId workspace projects:read',
        'GET /api/v1/workspaces/:workspaceId/raffles workspace raffles:read',
        'GET /api/v1/workspaces/:workspaceId/raffles/:raffleId workspace raffles:read',
        'GET /api/v1/workspaces/:workspaceId/raffles/:raffleId/entries workspace entries:read',
        'GET /api/v1/workspaces/:workspaceId/raffles/:raffleId/winners workspace winners:read',
      ].sort(),
    );
  });

  it('refuses to start with an /api/v1 route that declares no access', async () => {
    const bare = Fastify();
    await bare.register(fp(async (i) => void i.decorate('config', { API_KEY_CACHE_TTL_MS: 0 } as never), { name: 'config' }));
    await bare.register(fp(async (i) => void i.decorate('database', db.database), { name: 'database' }));
    await bare.register(authPlugin);
    let failure: unknown = null;
    try {
      bare.get('/api/v1/undeclared', async () => ({}));
      await bare.ready();
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).toMatch(/declares no access/);
    await bare.close().catch(() => {});
  });
});

describe('auth matrix, generated from the route table', () => {
  const rows = () => app.routeAccessTable;

  it('lets the right key through every route', async () => {
    const succeeded = new Set<string>();
    for (const { method, url, access } of rows()) {
      const key = access.keyType === 'personal' ? tenant.keys.personal : tenant.keys.workspace;
      const res = await call(method, concreteUrl(url, tenant, method), bearer(key));
      expect(authorizedStatuses(method), `${method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
      if (res.statusCode < 300) succeeded.add(`${method} ${url}`);
    }
    // The first call of each entry action ran it (entered, then withdrew).
    expect(succeeded.size, [...succeeded].join('\n')).toBe(rows().length);
  });

  it('accepts X-API-Key as the alternative scheme on every route', async () => {
    for (const { method, url, access } of rows()) {
      const key = access.keyType === 'personal' ? tenant.keys.personal : tenant.keys.workspace;
      const res = await call(method, concreteUrl(url, tenant, method), { 'x-api-key': key });
      expect(authorizedStatuses(method), `${method} ${url}: ${res.statusCode}`).toContain(res.statusCode);
    }
  });

  it('uses the Bearer key when both headers are present', async () => {
    for (const { method, url, access } of rows()) {
      const right = access.keyType === 'personal' ? tenant.keys.personal : tenant.keys.workspace;
      const wrong = access.keyType === 'personal' ? tenant.keys.workspace : tenant.keys.personal;
      const u = concreteUrl(url, tenant, method);
      expect(authorizedStatuses(method), `${method} ${url}`).toContain((await call(method, u, { ...bearer(right), 'x-api-key': wrong })).statusCode);
      expectError(await call(method, u, { ...bearer(wrong), 'x-api-key': right }), 403, 'WRONG_KEY_TYPE');
      expectError(await call(method, u, { ...bearer(tenant.keys.revoked), 'x-api-key': right }), 401, 'API_KEY_REVOKED');
    }
  });

  it('answers 401 for missing, malformed, unknown, revoked and expired keys on every route', async () => {
    const unknownButWellFormed = generateApiKey('personal');
    const malformed = `${tenant.keys.personal.slice(0, -1)}${tenant.keys.personal.endsWith('A') ? 'B' : 'A'}`;
    for (const { method, url } of rows()) {
      const u = concreteUrl(url, tenant, method);
      const cases: [Record<string, string>, string][] = [
        [{}, 'API_KEY_MISSING'],
        [{ authorization: 'Bearer ' }, 'API_KEY_MISSING'],
        // Bearer wins even when empty: a valid X-API-Key beside it is not used.
        [{ authorization: 'Bearer ', 'x-api-key': tenant.keys.personal }, 'API_KEY_MISSING'],
        [{ authorization: 'Bearer', 'x-api-key': tenant.keys.workspace }, 'API_KEY_MISSING'],
        [{ authorization: 'Basic dXNlcjpwYXNz' }, 'API_KEY_MISSING'],
        [bearer('svc_u_not-a-key'), 'API_KEY_INVALID'],
        [bearer(malformed), 'API_KEY_INVALID'],
        [bearer(unknownButWellFormed), 'API_KEY_INVALID'],
        [bearer(tenant.keys.revoked), 'API_KEY_REVOKED'],
        [bearer(tenant.keys.expired), 'API_KEY_EXPIRED'],
        [{ 'x-api-key': tenant.keys.expired }, 'API_KEY_EXPIRED'],
      ];
      for (const [headers, code] of cases) {
        const res = await call(method, u, headers);
        expectError(res, 401, code);
        expect(res.headers['www-authenticate']).toBe('Bearer');
      }
    }
  });

  it('answers 403 WRONG_KEY_TYPE for the other key type on every route', async () => {
    for (const { method, url, access } of rows()) {
      const wrong = access.keyType === 'personal' ? tenant.keys.workspace : tenant.keys.personal;
      expectError(await call(method, concreteUrl(url, tenant, method), bearer(wrong)), 403, 'WRONG_KEY_TYPE');
    }
  });

  it('answers 403 WORKSPACE_MISMATCH for another workspace\'s key on every workspace route', async () => {
    const workspaceRows = rows().filter((r) => r.access.keyType === 'workspace');
    expect(workspaceRows.length).toBeGreaterThan(0);
    for (const { method, url } of workspaceRows) {
      expectError(await call(method, concreteUrl(url, tenant, method), bearer(tenant.keys.otherWorkspace)), 403, 'WORKSPACE_MISMATCH');
    }
  });

  it('answers 403 INSUFFICIENT_SCOPE for a key lacking exactly the route\'s scope', async () => {
    for (const { method, url, access } of rows()) {
      const lacking = (access.keyType === 'personal' ? tenant.keys.personalWithout : tenant.keys.workspaceWithout)[access.scope];
      expect(lacking, access.scope).toBeDefined();
      expectError(await call(method, concreteUrl(url, tenant, method), bearer(lacking!)), 403, 'INSUFFICIENT_SCOPE');
    }
  });

  it('checks key type before workspace and workspace before scope', async () => {
    const url = `/api/v1/workspaces/${tenant.workspace.id}/raffles`;
    expectError(await call('GET', url, bearer(tenant.keys.personalWithout['raffles:read']!)), 403, 'WRONG_KEY_TYPE');
    const otherLacking = `/api/v1/workspaces/${tenant.otherWorkspace.id}/raffles`;
    expectError(await call('GET', otherLacking, bearer(tenant.keys.workspaceWithout['raffles:read']!)), 403, 'WORKSPACE_MISMATCH');
  });

  it('hides other workspaces\' resources behind 404, never 200', async () => {
    const ws = tenant.workspace.id;
    const foreign = tenant.foreignRaffle.id;
    expectError(await call('GET', `/api/v1/workspaces/${ws}/raffles/${foreign}`, bearer(tenant.keys.workspace)), 404, 'RAFFLE_NOT_FOUND');
    expectError(await call('GET', `/api/v1/workspaces/${ws}/raffles/${foreign}/entries`, bearer(tenant.keys.workspace)), 404, 'RAFFLE_NOT_FOUND');
    expectError(await call('GET', `/api/v1/workspaces/${ws}/raffles/${foreign}/winners`, bearer(tenant.keys.workspace)), 404, 'RAFFLE_NOT_FOUND');
    expectError(await call('GET', `/api/v1/workspaces/${ws}/raffles/${foreign}/allowlist`, bearer(tenant.keys.workspace)), 404, 'RAFFLE_NOT_FOUND');
    expectError(await call('GET', `/api/v1/workspaces/${ws}/raffles/${foreign}/allowlist/leaves`, bearer(tenant.keys.workspace)), 404, 'RAFFLE_NOT_FOUND');
    expectError(await call('GET', `/api/v1/workspaces/${ws}/raffles/raf_nope`, bearer(tenant.keys.workspace)), 404, 'RAFFLE_NOT_FOUND');
    expectError(await call('GET', `/api/v1/workspaces/${ws}/projects/prj_nope`, bearer(tenant.keys.workspace)), 404, 'PROJECT_NOT_FOUND');
  });

  it('shows personal keys published public and unlisted raffles, private ones only to members, drafts to nobody', async () => {
    const get = (slug: string, key: string) => call('GET', `/api/v1/raffles/${slug}`, bearer(key));
    expect((await get(tenant.foreignRaffle.slug, tenant.keys.personal)).statusCode).toBe(200);
    expect((await get(tenant.privateRaffle.slug, tenant.keys.personal)).statusCode).toBe(200);
    expectError(await get(tenant.draft.slug, tenant.keys.personal), 404, 'RAFFLE_NOT_FOUND');
    expectError(await call('GET', `/api/v1/raffles/${tenant.foreignRaffle.slug}/entries/me`, bearer(tenant.keys.personal)), 404, 'ENTRY_NOT_FOUND');
  });

  it('never writes a presented key to the logs, and does log the redacted header', async () => {
    await call('GET', '/api/v1/me', bearer(tenant.keys.personal));
    await call('GET', '/api/v1/me', { 'x-api-key': tenant.keys.personal });
    const joined = capturedLogLines.join('\n');
    expect(joined).toContain('"authorization":"[redacted]"');
    expect(joined).toContain('"x-api-key":"[redacted]"');
    expect(joined).not.toContain(tenant.keys.personal);
  });
});
