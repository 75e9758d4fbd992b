import { missingMetrics } from '@raffle/service-kit/testing/metric-exports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let testDb: TestDatabase;
let app: ManagementApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

describe('operations', () => {
  it('serves liveness, readiness and metrics', async () => {
    expect((await app.inject({ method: 'GET', url: '/health/live' })).json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect((ready.json() as { checks: { database: string } }).checks.database).toBe('ok');
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('service="management"');
  });

  it('exports every metric the alerts and the dashboard read of management, and counts auth failures by code', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/developer/personal/api-keys' })).statusCode).toBe(401);
    const bad = await app.inject({ method: 'GET', url: '/api/developer/personal/api-keys', headers: { authorization: 'Bearer not-a-jwt' } });
    expect(bad.statusCode).toBe(401);
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(missingMetrics('management', metrics)).toEqual([]);
    expect(metrics).toMatch(/^auth_failures_total\{code="SESSION_TOKEN_MISSING",service="management"\} 1$/m);
    // Management's bodies carry the code as the message's first word.
    const code = (bad.json() as { message: string }).message.split(':')[0];
    expect(code).toBe('SESSION_TOKEN_INVALID');
    expect(metrics).toMatch(/^auth_failures_total\{code="SESSION_TOKEN_INVALID",service="management"\} 1$/m);
    // The scheduler is off in tests: its metrics are exported all the same, with no pass.
    expect(metrics).toMatch(/^scheduler_last_pass_timestamp_seconds\{service="management"\} 0$/m);
  });

  it('documents every management route in OpenAPI with operationId, tags, security and every status', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    const doc = res.json() as { paths: Record<string, Record<string, { operationId?: string; tags?: string[]; security?: unknown[]; responses: Record<string, unknown> }>> };
    const ids = new Set<string>();
    for (const route of app.managedRoutes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      expect(op!.operationId).toBeTruthy();
      ids.add(op!.operationId!);
      expect(op!.tags?.length).toBeGreaterThan(0);
      expect(op!.security).toEqual([{ dashboardJwt: [] }]);
      for (const status of ['400', '401', '403', '404', '409', '500']) expect(op!.responses).toHaveProperty(status);
    }
    expect(ids.size).toBe(app.managedRoutes.length);
    expect((await app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
  });
});
