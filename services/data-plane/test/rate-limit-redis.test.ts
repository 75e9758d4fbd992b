import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let db: TestDatabase;
let tenant: Tenant;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database);
  for (let i = 0; i < 2; i++) {
    apps.push(await buildTestApp(db.database, db.url, { REDIS_URL, RATE_LIMIT_PERSONAL_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' }));
  }
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await db?.drop();
});

describe('rate limits shared through Redis', () => {
  it('counts one key\'s requests across instances and refuses the fourth with 429', async () => {
    const headers = { authorization: `Bearer ${tenant.keys.personal}` };
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await apps[i % 2]!.inject({ url: '/api/v1/me', headers });
      statuses.push(res.statusCode);
      remaining.push(String(res.headers.ratelimit));
      if (res.statusCode === 429) {
        expect(res.json().code).toBe('RATE_LIMITED');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(remaining.slice(0, 3).map((r) => /r=(\d+)/.exec(r)?.[1])).toEqual(['2', '1', '0']);
  });

  it('keeps separate budgets per key', async () => {
    const res = await apps[0]!.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${tenant.keys.personalWithout['wins:read']}` } });
    expect(res.statusCode).toBe(200);
  });
});
