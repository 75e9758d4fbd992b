import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { waitUntil } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { attemptsOf, deliveriesOf, waitForDeliveries } from './support/queries.js';
import { startSink } from './support/sink.js';

const LEASE_MS = 1500;

let testDb: TestDatabase;
const apps: DispatcherApp[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await testDb?.drop();
});

describe('delivery leases', () => {
  it('a POST that outlasts the lease keeps its delivery: the holder renews the lease, and the other instance polling sends nothing', async () => {
    const sql = testDb.database.sql;
    const names = isolatedStreamNames();
    const overrides = { ...names, DELIVERY_LEASE_MS: String(LEASE_MS), DELIVERY_TIMEOUT_MS: '20000', DELIVERY_POLL_INTERVAL_MS: '50' };
    for (let i = 0; i < 2; i++) {
      const app = await buildTestApp(testDb.database, testDb.url, overrides);
      apps.push(app);
      await app.dispatcher.consumerStarted;
    }
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink(() => 'hold');
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    await owners.workspaceEvent();
    await sink.waitFor(1);
    const [claimed] = await deliveriesOf(sql, { endpointId: endpoint.id });

    // A whole lease passes while the POST hangs: unrenewed, the lease would have run out and the
    // other instance's poll would have sent the delivery again.
    const renewed = await waitUntil('the lease renewed to end a full lease after it first would have', async () => {
      const [row] = await deliveriesOf(sql, { endpointId: endpoint.id });
      return row!.nextAttemptAt!.getTime() >= claimed!.nextAttemptAt!.getTime() + LEASE_MS ? row : undefined;
    });
    expect(renewed).toMatchObject({ status: 'pending', attemptCount: 0 });
    expect(sink.received).toHaveLength(1);

    sink.release(200);
    const [delivered] = await waitForDeliveries(sql, endpoint.id, 1, (d) => d.status === 'succeeded');
    expect(delivered).toMatchObject({ attemptCount: 1, nextAttemptAt: null });
    expect(await attemptsOf(sql, { deliveryId: delivered!.id })).toHaveLength(1);
    expect(sink.received).toHaveLength(1);
    await sink.close();
  });
});
