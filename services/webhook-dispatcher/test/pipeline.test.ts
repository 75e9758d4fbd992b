import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { startSink } from './support/sink.js';

let testDb: TestDatabase;
let app: DispatcherApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, isolatedStreamNames());
  await app.dispatcher.consumerStarted;
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('outbox → JetStream → signed POST', () => {
  it('delivers a committed event to a subscribed endpoint, signed so standardwebhooks verifies it', async () => {
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink();
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    await owners.workspaceEvent('raffle.published', { id: 'raf_x', title: 'Hello' });
    await sink.waitFor(1);
    const [request] = sink.received;
    const verified = new Webhook(endpoint.secret).verify(request!.body, request!.headers as Record<string, string>) as { type: string; data: unknown };
    expect(verified).toMatchObject({ type: 'raffle.published', data: { id: 'raf_x', title: 'Hello' } });
    expect(request!.headers['webhook-id']).toMatch(/^evt_/);
    await sink.close();
  });
});
