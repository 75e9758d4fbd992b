import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let db: TestDatabase;
let app: FastifyInstance;
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

describe('smoke', () => {
  it('serves every route', async () => {
    const auth = { authorization: `Bearer ${tenant.keys.personal}` };
    const ws = { authorization: `Bearer ${tenant.keys.workspace}` };
    for (const [url, headers] of [
      ['/api/v1/me', auth],
      ['/api/v1/raffles', auth],
      [`/api/v1/raffles/${tenant.finalized.slug}`, auth],
      [`/api/v1/raffles/${tenant.finalized.slug}/entries/me`, auth],
      ['/api/v1/entries', auth],
      ['/api/v1/wins', auth],
      [`/api/v1/workspaces/${tenant.workspace.id}/raffles`, ws],
      [`/api/v1/workspaces/${tenant.workspace.id}/raffles/${tenant.finalized.id}`, ws],
      [`/api/v1/workspaces/${tenant.workspace.id}/raffles/${tenant.finalized.id}/entries?limit=5`, ws],
      [`/api/v1/workspaces/${tenant.workspace.id}/raffles/${tenant.finalized.id}/winners`, ws],
      [`/api/v1/workspaces/${tenant.workspace.id}/projects`, ws],
      [`/api/v1/workspaces/${tenant.workspace.id}/projects/${tenant.projects[0]!.id}`, ws],
    ] as const) {
      const res = await app.inject({ url, headers });
      console.log(url, res.statusCode, res.body.slice(0, 300), res.headers['ratelimit']);
      expect(res.statusCode).toBe(200);
    }
    for (const url of ['/nope', '/api/v1/me?x=1', '/openapi.json', '/health/ready', '/metrics']) {
      const res = await app.inject({ url, method: url === '/api/v1/me?x=1' ? 'POST' : 'GET' });
      console.log(url, res.statusCode, res.body.slice(0, 200));
    }
  });
});
