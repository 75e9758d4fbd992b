import { missingMetrics } from '@raffle/service-kit/testing/metric-exports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type DataPlaneApp } from '../src/app.js';
import { buildTestApp, testConfig } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { testLogStream } from './support/log-scan.js';

let testDb: TestDatabase;
let app: DataPlaneApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  // A budget of two keyless requests, so the third is refused.
  app = await buildTestApp(testDb.database, testDb.url, { RATE_LIMIT_ANONYMOUS_MAX: '2' });
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;
const sample = (metrics: string, name: string, labels: string) =>
  Number(new RegExp(`^${name}\\{${labels.replace(/[{}]/g, '')},service="data-plane"\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? Number.NaN);

describe('metrics', () => {
  it('exports every metric the alerts and the dashboard read of the data plane (the replica\'s where one is configured)', async () => {
    // The replica's gauges exist only with a read replica: a second app is given one (this very
    // database, which it never reads from as it is not replaying).
    const routed = await buildApp(testConfig(testDb.url), { database: testDb.database, readDatabase: testDb.database, logStream: testLogStream });
    try {
      expect(missingMetrics('data-plane', (await routed.inject({ url: '/metrics' })).body)).toEqual([]);
    } finally {
      await routed.close();
    }
    const withoutReplica = missingMetrics('data-plane', await scrape());
    expect(withoutReplica.sort()).toEqual(['raffle_read_replica_available', 'raffle_read_replica_staleness_ms']);
  });

  it('counts refused credentials by code and rate-limit refusals by bucket', async () => {
    const missing = await app.inject({ method: 'GET', url: '/api/v1/me' });
    expect(missing.json()).toMatchObject({ code: 'API_KEY_MISSING' });
    const invalid = await app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: 'Bearer svc_u_not-a-key' } });
    expect(invalid.statusCode).toBe(401);
    const limited = await app.inject({ method: 'GET', url: '/api/v1/me' });
    expect(limited.statusCode).toBe(429);

    const metrics = await scrape();
    expect(sample(metrics, 'auth_failures_total', 'code="API_KEY_MISSING"')).toBe(1);
    expect(sample(metrics, 'auth_failures_total', `code="${(invalid.json() as { code: string }).code}"`)).toBe(1);
    expect(sample(metrics, 'rate_limit_rejections_total', 'bucket="default"')).toBe(1);
    expect(metrics).toMatch(/^db_pool_size\{service="data-plane"\} \d+$/m);
    expect(metrics).toMatch(/^db_pool_queries\{state="waiting",service="data-plane"\} 0$/m);
  });
});
