import { afterAll, beforeAll, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let db: TestDatabase; let app: FastifyInstance; let tenant: Tenant;
beforeAll(async () => { db = await createTestDatabase(); tenant = await seedTenant(db.database); app = await buildTestApp(db.database, db.url); });
afterAll(async () => { await app?.close(); await db?.drop(); });

it('probe', async () => {
  const p = { authorization: `Bearer ${tenant.keys.personal}` };
  const w = { authorization: `Bearer ${tenant.keys.workspace}` };
  const ws = tenant.workspace.id;
  const cases: Array<[string, string, Record<string,string>, any?]> = [
    ['GET', '/api/v1/me/', p],
    ['GET', '/api/v1/raffles/' + 'a'.repeat(101), p],
    ['GET', '/api/v1/raffles/' + 'a'.repeat(100), p],
    ['GET', '/api/v1/raffles/%00', p],
    ['GET', '/api/v1/raffles/%00/entries/me', p],
    ['GET', `/api/v1/workspaces/${ws}/projects/%00`, w],
    ['GET', `/api/v1/workspaces/${ws}/raffles/%00`, w],
    ['GET', `/api/v1/raffles/%FF`, p],
    ['GET', `/api/v1/raffles/%ED%A0%80`, p],
    ['GET', `/api/v1/raffles/%`, p],
    ['GET', `/api/v1/raffles//entries/me`, p],
    ['GET', `/api/v1/raffles?limit=1&limit=2`, p],
    ['GET', `/api/v1/raffles?cursor=a&cursor=b`, p],
    ['GET', `/api/v1/raffles?cursor=%00.abc`, p],
    ['GET', `/api/v1/raffles?limit=%00`, p],
    ['GET', `/api/v1/raffles?limit[a]=1`, p],
    ['GET', `/api/v1/raffles?limit=`, p],
    ['GET', `/api/v1/raffles?cursor=`, p],
    ['GET', `/api/v1/raffles?limit=1e1`, p],
    ['GET', `/api/v1/raffles?limit=0x10`, p],
    ['GET', `/api/v1/raffles?limit= 5`, p],
    ['HEAD', `/api/v1/raffles`, p],
    ['OPTIONS', `/api/v1/raffles`, p],
    ['POST', `/api/v1/raffles`, { ...p, 'content-type': 'application/json' }, '{bad'],
    ['POST', `/api/v1/raffles`, { ...p, 'content-type': 'text/plain' }, 'x'.repeat(100000)],
    ['DELETE', `/api/v1/raffles`, { ...p, 'content-type': 'application/json' }, '{bad'],
    ['GET', `/api/v1/raffles`, { ...p, 'content-type': 'application/json' }, '{bad'],
    ['GET', `/api/v1/raffles`, { ...p, 'content-type': 'application/xml' }, '<a/>'],
    ['GET', `/api/v1/raffles`, { authorization: 'Bearer svc_u_' + 'x'.repeat(5000) }],
    ['GET', `/api/v1/raffles`, { 'x-api-key': 'é' }],
    ['GET', `/api/v1/raffles`, { 'x-request-id': 'a b' }],
    ['GET', `/nope?x=1`, {}],
    ['GET', `/api/v1/me`, { 'x-forwarded-for': '1.2.3.4', authorization: 'Basic abc' }],
    ['GET', `/api/v1/../v1/me`, p],
    ['GET', `/api/v1/./me`, p],
    ['GET', `/api/v1/me#frag`, p],
    ['GET', `/api/v1/me?`, p],
    ['GET', `/api/v1/workspaces/${ws}/raffles/${tenant.finalized.id}/winners?limit=abc`, w],
    ['GET', `/api/v1/workspaces/${ws}/raffles/${tenant.finalized.id}/entries?cursor=${'a'.repeat(600)}`, w],
    ['GET', `/docs`, {}],
    ['POST', `/openapi.json`, {}],
  ];
  for (const [method, url, headers, payload] of cases) {
    try {
      const res = await app.inject({ method: method as any, url, headers, payload });
      console.log(method, url.slice(0, 80), res.statusCode, JSON.stringify(res.headers.allow ?? ''), res.body.slice(0, 250));
    } catch (e) { console.log(method, url.slice(0,80), 'THREW', (e as Error).message); }
  }
});
