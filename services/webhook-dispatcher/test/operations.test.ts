import { missingMetrics } from '@raffle/service-kit/testing/metric-exports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { waitForDeliveries } from './support/queries.js';
import { startSink } from './support/sink.js';

let testDb: TestDatabase;
let app: DispatcherApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, isolatedStreamNames());
  await app.dispatcher.consumerStarted;
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

/** The value of one sample line of the Prometheus text, or undefined when absent. */
const sample = (metrics: string, name: string, labels: Record<string, string>): number | undefined => {
  const line = metrics
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('health', () => {
  it('/health/live answers ok', async () => {
    const response = await app.inject({ method: 'GET', url: '/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('/health/ready reports the database and NATS', async () => {
    const response = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', checks: { database: 'ok', nats: 'ok' } });
  });
});

describe('/metrics', () => {
  it('counts delivery attempts by outcome and times them', async () => {
    const owners = await createOwners(testDb.database.db);
    let status = 200;
    const sink = await startSink(() => ({ status }));
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    await owners.workspaceEvent();
    await waitForDeliveries(testDb.database.sql, endpoint.id, 1);
    status = 500;
    await owners.workspaceEvent();
    await waitForDeliveries(testDb.database.sql, endpoint.id, 2, (d) => d.attemptCount === 1);

    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const metrics = response.body;
    expect(metrics).toContain('# TYPE webhook_attempts_total counter');
    expect(sample(metrics, 'webhook_attempts_total', { outcome: 'success', service: 'webhook-dispatcher' })).toBe(1);
    expect(sample(metrics, 'webhook_attempts_total', { outcome: 'http_status', service: 'webhook-dispatcher' })).toBe(1);
    expect(metrics).toMatch(/^webhook_attempt_duration_seconds_count\{[^}]*\} 2$/m);
    expect(missingMetrics('webhook-dispatcher', metrics)).toEqual([]);
    expect(metrics).toMatch(/^outbox_unpublished_events\{[^}]*\} 0$/m);
    expect(metrics).toMatch(/^outbox_oldest_unpublished_age_seconds\{[^}]*\} 0$/m);
    expect(metrics).toMatch(/^webhook_delivery_lag_seconds_count\{[^}]*attempt="first"[^}]*\} 2$/m);
    expect(metrics).toMatch(/^jetstream_consumer_pending_messages\{[^}]*state="pending"[^}]*\} 0$/m);
    await sink.close();
  });
});

describe('OpenAPI', () => {
  it('/openapi.json is OpenAPI 3.1 listing every route with an operationId', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(['/health/live', '/health/ready', '/metrics', '/openapi.json']);
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const operation of Object.values(operations)) {
        expect(operation.operationId, path).toEqual(expect.any(String));
        expect(operation.tags, path).toEqual(['Operations']);
      }
    }
  });

  it('an unknown route answers 404 with the error body', async () => {
    const response = await app.inject({ method: 'GET', url: '/nope?x=1', headers: { 'x-request-id': 'req-ops-404' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, error: 'Not Found', path: '/nope', requestId: 'req-ops-404' });
  });
});
