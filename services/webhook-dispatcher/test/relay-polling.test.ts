import { createDatabase, type Database } from '@raffle/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { capturedLogLines } from './support/log-scan.js';
import { waitForDeliveries } from './support/queries.js';
import { startSink } from './support/sink.js';

/**
 * Behind a transaction pooler without DATABASE_DIRECT_URL there is nowhere to LISTEN
 * (docs/decisions/0037): the relay says once that it polls, and events still flow on its poll.
 * In the `webhook-dispatcher-pgbouncer` project the pool really goes through PgBouncer.
 */
describe('the relay with no session connection to LISTEN on', () => {
  let testDb: TestDatabase;
  let pooled: Database;
  let app: DispatcherApp;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    pooled = createDatabase({ url: testDb.url, max: 4, poolMode: 'transaction' });
    app = await buildTestApp(pooled, testDb.url, { ...isolatedStreamNames(), RELAY_POLL_INTERVAL_MS: '100' });
    await app.dispatcher.consumerStarted;
  });
  afterAll(async () => {
    await app?.close();
    await pooled?.close();
    await testDb?.drop();
  });

  it('logs once that it polls, and relays what commits on its poll', async () => {
    expect(pooled.listenSql).toBeNull();
    expect(capturedLogLines.filter((line) => line.includes('outbox relay: no session connection to LISTEN on'))).toHaveLength(1);
    const owners = await createOwners(pooled.db);
    const sink = await startSink();
    try {
      const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
      await owners.workspaceEvent();
      await owners.workspaceEvent();
      await waitForDeliveries(pooled.sql, endpoint.id, 2);
      await sink.waitFor(2);
    } finally {
      await sink.close();
    }
  });
});
