import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { waitUntil } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { startSink } from './support/sink.js';

let testDb: TestDatabase;
let app: DispatcherApp;
const sinks: Awaited<ReturnType<typeof startSink>>[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, {
    ...isolatedStreamNames(),
    DELIVERY_CONCURRENCY_PER_ENDPOINT: '4',
    // Long enough that the dead endpoint's POSTs are all still hanging when the test ends.
    DELIVERY_TIMEOUT_MS: '60000',
    DRAIN_TIMEOUT_MS: '0',
  });
  await app.dispatcher.consumerStarted;
});
afterAll(async () => {
  // Cut the held connections first, so closing the app has nothing in flight to wait for.
  await Promise.all(sinks.map((s) => s.close()));
  await app?.close();
  await testDb?.drop();
});

describe('per-endpoint isolation', () => {
  it('a dead endpoint holds at most its share; a healthy one beside it gets every event promptly', async () => {
    const owners = await createOwners(testDb.database.db);
    const dead = await startSink(() => 'hold');
    const healthy = await startSink();
    sinks.push(dead, healthy);
    await owners.endpoint({ url: `${dead.url}/hook` });
    await owners.endpoint({ url: `${healthy.url}/hook` });

    const ids = await owners.workspaceEvents(40);
    const started = Date.now();
    await healthy.waitFor(40, 3000);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(new Set(healthy.received.map((r) => r.headers['webhook-id']))).toEqual(new Set(ids));

    // The dead endpoint is still stuck on its first four, and got no more than that.
    expect(dead.held()).toBe(4);
    expect(dead.received).toHaveLength(4);
  });

  it('holds for endpoints that share a host: a dead path does not starve a healthy one beside it', async () => {
    const owners = await createOwners(testDb.database.db);
    const host = await startSink((request) => (request.path === '/dead' ? 'hold' : { status: 204 }));
    sinks.push(host);
    await owners.endpoint({ url: `${host.url}/dead` });
    await owners.endpoint({ url: `${host.url}/healthy` });

    const ids = await owners.workspaceEvents(40);
    const healthy = () => host.received.filter((r) => r.path === '/healthy');
    await waitUntil('the healthy path to receive all 40', () => healthy().length === 40, 3000);
    expect(new Set(healthy().map((r) => r.headers['webhook-id']))).toEqual(new Set(ids));
    expect(host.received.filter((r) => r.path === '/dead')).toHaveLength(4);
    expect(host.held()).toBe(4);
  });
});
