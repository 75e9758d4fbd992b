import { afterAll, beforeAll, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let db: TestDatabase; let app: FastifyInstance; let tenant: Tenant;
beforeAll(async () => { db = await createTestDatabase(); tenant = await seedTenant(db.database); app = await buildTestApp(db.database, db.url, { RATE_LIMIT_PERSONAL_MAX: '2', RATE_LIMIT_ANONYMOUS_MAX: '3' }); });
afterAll(async () => { await app?.close(); await db?.drop(); });

it('probe', async () => {
  const p = { authorization: `Bearer ${tenant.keys.personal}` };
  for (let i = 0; i < 3; i++) {
    const res = await app.inject({ url: '/api/v1/me', headers: p });
    console.log(res.statusCode, JSON.stringify(res.headers), res.body.slice(0, 300));
  }
  for (let i = 0; i < 4; i++) {
    const res = await app.inject({ url: '/api/v1/raffles', remoteAddress: '10.0.0.9' } as any);
    console.log('anon', res.statusCode, res.headers['ratelimit'], res.headers['ratelimit-policy'], res.headers['retry-after'], res.body.slice(0, 200));
  }
  const res = await app.inject({ url: '/api/v1/wins', headers: p });
  console.log('wins', res.statusCode, res.body.slice(0,200));
  const o = await app.inject({ url: '/openapi.json' });
  const doc = o.json();
  console.log(Object.keys(doc.paths), JSON.stringify(doc.paths['/api/v1/workspaces/{workspaceId}/raffles/{raffleId}/winners']).slice(0, 3000));
  console.log(Object.keys(doc.components.schemas));
  const seen = new Set<string>(); JSON.stringify(doc, (k, v) => { if (k === '$ref') seen.add(v); return v; });
  console.log([...seen]);
  // db close
  await db.database.close();
  for (const [url, h] of [['/api/v1/me', p], ['/api/v1/wins', { authorization: `Bearer ${tenant.keys.personalWithout['profile:read']}` }], ['/health/ready', {}]] as const) {
    const r = await app.inject({ url, headers: h, remoteAddress: '10.0.0.10' } as any);
    console.log('closed', url, r.statusCode, JSON.stringify(r.headers), r.body.slice(0, 400));
  }
});
