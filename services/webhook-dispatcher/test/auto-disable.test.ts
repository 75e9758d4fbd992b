import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { DAY, MINUTE, manualClock, SECOND } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { deliveriesOf, endpointRow, waitForDeliveries } from './support/queries.js';
import { startSink } from './support/sink.js';

let testDb: TestDatabase;
let app: DispatcherApp;
const clock = manualClock();

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, { ...isolatedStreamNames(), DELIVERY_POLL_INTERVAL_MS: '3600000' }, { now: clock.now, random: () => 0.5 });
  await app.dispatcher.consumerStarted;
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

describe('auto-disable after 5 days of failures', () => {
  it('disables an endpoint whose deliveries kept failing for more than 5 days, and fails what it had pending', async () => {
    const sql = testDb.database.sql;
    const owners = await createOwners(testDb.database.db);
    const failing = await startSink(() => ({ status: 500 }));
    const observer = await startSink();
    const endpoint = await owners.endpoint({ url: `${failing.url}/hook` });
    await owners.endpoint({ url: `${observer.url}/hook` });
    const start = clock.now().getTime();

    await owners.workspaceEvent();
    await waitForDeliveries(sql, endpoint.id, 1, (d) => d.attemptCount === 1);
    expect(await endpointRow(sql, endpoint.id)).toMatchObject({ enabled: true, failingSince: new Date(start) });

    clock.set(new Date(start + 5 * DAY - MINUTE));
    await owners.workspaceEvent();
    await waitForDeliveries(sql, endpoint.id, 2, (d) => d.attemptCount === 1);
    expect(await endpointRow(sql, endpoint.id)).toMatchObject({ enabled: true, failingSince: new Date(start), disabledReason: null });

    clock.set(new Date(start + 5 * DAY + SECOND));
    await owners.workspaceEvent();
    const deliveries = await waitForDeliveries(sql, endpoint.id, 3, (d) => d.attemptCount === 1 && d.status === 'failed');
    expect(deliveries.every((d) => d.nextAttemptAt === null)).toBe(true);
    expect(await endpointRow(sql, endpoint.id)).toMatchObject({
      enabled: false,
      disabledReason: 'Every delivery failed for 5 days',
      disabledAt: clock.now(),
    });

    // Disabled: neither the old retries nor a new event reach it.
    clock.advance(DAY);
    await app.dispatcher.pollDue();
    await app.dispatcher.worker.idle();
    await owners.workspaceEvent();
    await observer.waitFor(4);
    expect(failing.received).toHaveLength(3);
    expect(await deliveriesOf(sql, { endpointId: endpoint.id })).toHaveLength(3);
    await Promise.all([failing.close(), observer.close()]);
  });

  it('a success in between clears failing_since, and the 5 days count from the next failure', async () => {
    const sql = testDb.database.sql;
    const owners = await createOwners(testDb.database.db);
    let status = 500;
    const sink = await startSink(() => ({ status }));
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    const start = clock.now().getTime();
    const deliverAt = async (offset: number, answer: number, count: number) => {
      clock.set(new Date(start + offset));
      status = answer;
      await owners.workspaceEvent();
      await waitForDeliveries(sql, endpoint.id, count, (d) => d.attemptCount === 1);
      return endpointRow(sql, endpoint.id);
    };

    expect(await deliverAt(0, 500, 1)).toMatchObject({ enabled: true, failingSince: new Date(start) });
    expect(await deliverAt(3 * DAY, 200, 2)).toMatchObject({ enabled: true, failingSince: null });
    expect(await deliverAt(4 * DAY, 500, 3)).toMatchObject({ enabled: true, failingSince: new Date(start + 4 * DAY) });
    // Six days after the first failure, but only two into the current streak.
    expect(await deliverAt(6 * DAY, 500, 4)).toMatchObject({ enabled: true, failingSince: new Date(start + 4 * DAY) });
    expect(await deliverAt(9 * DAY + SECOND, 500, 5)).toMatchObject({ enabled: false, disabledReason: 'Every delivery failed for 5 days' });
    await sink.close();
  });
});
