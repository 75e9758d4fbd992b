import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { HOUR, manualClock, MINUTE, SECOND } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { attemptsOf, deliveriesOf, endpointRow, waitForDeliveries } from './support/queries.js';
import { startSink } from './support/sink.js';

let testDb: TestDatabase;
let app: DispatcherApp;
const clock = manualClock();
/** What the app's random() answers: 0.5 puts every retry exactly on the schedule. */
let jitter = 0.5;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, { ...isolatedStreamNames(), DELIVERY_POLL_INTERVAL_MS: '3600000' }, { now: clock.now, random: () => jitter });
  await app.dispatcher.consumerStarted;
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

/** The waits before attempts 2…8 (product.md: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
const WAITS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

describe('retry schedule', () => {
  it('retries a failing endpoint on schedule, never early, and gives up after 8 attempts', async () => {
    const sql = testDb.database.sql;
    const owners = await createOwners(testDb.database.db);
    const longBody = 'x'.repeat(5000);
    const sink = await startSink(() => ({ status: 503, body: longBody }));
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    const start = clock.now().getTime();
    await owners.workspaceEvent();
    let [delivery] = await waitForDeliveries(sql, endpoint.id, 1, (d) => d.attemptCount === 1);
    const expectedAt = [start];

    for (const [i, wait] of WAITS.entries()) {
      const due = expectedAt[i]! + wait;
      expect(delivery!.nextAttemptAt).toEqual(new Date(due));
      // A millisecond early: nothing is due, nothing is sent.
      clock.set(new Date(due - 1));
      expect(await app.dispatcher.pollDue()).toBe(0);
      expect(sink.received).toHaveLength(i + 1);

      clock.set(new Date(due));
      expect(await app.dispatcher.pollDue()).toBe(1);
      [delivery] = await waitForDeliveries(sql, endpoint.id, 1, (d) => d.attemptCount === i + 2);
      expect(sink.received).toHaveLength(i + 2);
      expectedAt.push(due);
    }

    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 8, nextAttemptAt: null, lastAttemptAt: new Date(expectedAt[7]!) });
    clock.advance(24 * HOUR);
    expect(await app.dispatcher.pollDue()).toBe(0);
    expect(sink.received).toHaveLength(8);

    const attempts = await attemptsOf(sql, { deliveryId: delivery!.id });
    expect(attempts.map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(attempts.map((a) => a.createdAt.getTime() - start)).toEqual(expectedAt.map((at) => at - start));
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ responseStatus: 503, failureKind: 'http_status', responseBody: 'x'.repeat(1024) });
      expect(Number.isInteger(attempt.latencyMs) && attempt.latencyMs >= 0).toBe(true);
    }
    // 27 h of failures is inside the 5-day window: the endpoint stays enabled, its streak dated from the first.
    expect(await endpointRow(sql, endpoint.id)).toMatchObject({ enabled: true, failingSince: new Date(start) });
    await sink.close();
  });

  it('stores at most 1 KB of a multi-byte body without splitting a character', async () => {
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink(() => ({ status: 500, body: 'é'.repeat(2000) }));
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    await owners.workspaceEvent();
    const [delivery] = await waitForDeliveries(testDb.database.sql, endpoint.id, 1, (d) => d.attemptCount === 1);
    const [attempt] = await attemptsOf(testDb.database.sql, { deliveryId: delivery!.id });
    expect(attempt!.responseBody).toBe('é'.repeat(512));
    expect(Buffer.byteLength(attempt!.responseBody!)).toBeLessThanOrEqual(1024);
    await testDb.database.sql`update webhook_deliveries set status = 'failed', next_attempt_at = null where id = ${delivery!.id}`;
    await sink.close();
  });

  it('spreads retries with the jitter random() gives (±10%)', async () => {
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink(() => ({ status: 500 }));
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    const at = clock.now().getTime();
    jitter = 1;
    try {
      await owners.workspaceEvent();
      const [delivery] = await waitForDeliveries(testDb.database.sql, endpoint.id, 1, (d) => d.attemptCount === 1);
      expect(delivery!.nextAttemptAt).toEqual(new Date(at + 5500));
      jitter = 0;
      clock.set(new Date(at + 5500));
      expect(await app.dispatcher.pollDue()).toBe(1);
      const [retried] = await waitForDeliveries(testDb.database.sql, endpoint.id, 1, (d) => d.attemptCount === 2);
      expect(retried!.nextAttemptAt).toEqual(new Date(at + 5500 + 0.9 * 5 * MINUTE));
      expect((await deliveriesOf(testDb.database.sql, { endpointId: endpoint.id }))[0]!.status).toBe('pending');
    } finally {
      jitter = 0.5;
      await sink.close();
    }
  });
});
