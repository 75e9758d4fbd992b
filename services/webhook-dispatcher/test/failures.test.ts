import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { HOUR, manualClock, SECOND, waitUntil } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { attemptsOf, deliveriesOf, endpointRow, stopRetries, waitForDeliveries } from './support/queries.js';
import { refusedUrl, startSink, type SinkAnswer } from './support/sink.js';

let testDb: TestDatabase;
let app: DispatcherApp;
const clock = manualClock();

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(
    testDb.database,
    testDb.url,
    { ...isolatedStreamNames(), DELIVERY_POLL_INTERVAL_MS: '3600000', DELIVERY_TIMEOUT_MS: '300' },
    { now: clock.now, random: () => 0.5 },
  );
  await app.dispatcher.consumerStarted;
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

/** Answers requests in arrival order from `answers`, then with the last one. */
const inOrder = (answers: SinkAnswer[]) => {
  let next = 0;
  return () => answers[Math.min(next++, answers.length - 1)]!;
};

describe('410 Gone', () => {
  it('disables the endpoint at once and fails everything it still had pending, in flight included', async () => {
    const sql = testDb.database.sql;
    const owners = await createOwners(testDb.database.db);
    const gone = await startSink(inOrder([{ status: 500 }, 'hold', { status: 410, body: 'gone for good' }]));
    const observer = await startSink();
    const endpoint = await owners.endpoint({ url: `${gone.url}/hook` });
    await owners.endpoint({ url: `${observer.url}/hook` });

    // A: failed once, waiting for its retry. B: in flight, held by the endpoint. C: answered 410.
    const eventA = await owners.workspaceEvent();
    await waitForDeliveries(sql, endpoint.id, 1, (d) => d.attemptCount === 1);
    const eventB = await owners.workspaceEvent();
    await gone.waitFor(2);
    const eventC = await owners.workspaceEvent();
    await gone.waitFor(3);

    const disabled = await waitUntil('the endpoint to be disabled', async () => {
      const row = await endpointRow(sql, endpoint.id);
      return row.enabled ? undefined : row;
    });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone', disabledAt: clock.now() });
    const byEvent = async () => new Map((await deliveriesOf(sql, { endpointId: endpoint.id })).map((d) => [d.eventId, d]));
    let deliveries = await byEvent();
    expect(deliveries.get(eventC)).toMatchObject({ status: 'failed', attemptCount: 1, nextAttemptAt: null });
    expect(deliveries.get(eventA)).toMatchObject({ status: 'failed', attemptCount: 1, nextAttemptAt: null });
    expect(deliveries.get(eventB)).toMatchObject({ status: 'failed', nextAttemptAt: null });
    const [goneAttempt] = await attemptsOf(sql, { deliveryId: deliveries.get(eventC)!.id });
    expect(goneAttempt).toMatchObject({ responseStatus: 410, failureKind: 'http_status', responseBody: 'gone for good' });

    // B's answer arrives after the disable: its attempt is logged, but it does not come back to life.
    gone.release(500);
    await waitUntil('the in-flight attempt to be recorded', async () => (await attemptsOf(sql, { deliveryId: deliveries.get(eventB)!.id })).length === 1);
    deliveries = await byEvent();
    expect(deliveries.get(eventB)).toMatchObject({ status: 'failed', attemptCount: 1, nextAttemptAt: null });

    // Nothing more is sent: not A's retry, not B's, and no new event.
    clock.advance(HOUR);
    await app.dispatcher.pollDue();
    await app.dispatcher.worker.idle();
    await owners.workspaceEvent();
    await observer.waitFor(4);
    expect(gone.received).toHaveLength(3);
    expect(await deliveriesOf(sql, { endpointId: endpoint.id })).toHaveLength(3);
    await Promise.all([gone.close(), observer.close()]);
  });
});

describe('an endpoint disabled by its owner', () => {
  it('gets nothing more, and its waiting retries are failed instead of held pending', async () => {
    const sql = testDb.database.sql;
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink(() => ({ status: 500 }));
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    await owners.workspaceEvent();
    const [delivery] = await waitForDeliveries(sql, endpoint.id, 1, (d) => d.attemptCount === 1);
    await sql`update webhook_endpoints set enabled = false, disabled_reason = 'Disabled by its owner', disabled_at = now() where id = ${endpoint.id}`;

    clock.advance(10 * SECOND);
    expect(await app.dispatcher.pollDue()).toBe(1);
    await app.dispatcher.worker.idle();
    const [after] = await waitForDeliveries(sql, endpoint.id, 1);
    expect(after).toMatchObject({ id: delivery!.id, status: 'failed', attemptCount: 1, nextAttemptAt: null });
    expect(sink.received).toHaveLength(1);
    await sink.close();
  });
});

describe('failure kinds', () => {
  it.each([301, 302, 303, 307, 308])('%i is a redirect failure and its Location is not followed', async (status) => {
    const sql = testDb.database.sql;
    const owners = await createOwners(testDb.database.db);
    const target = await startSink(() => ({ status: 200 }));
    const sink = await startSink(() => ({ status, headers: { location: `${target.url}/elsewhere` }, body: 'moved' }));
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    await owners.workspaceEvent();
    const [delivery] = await waitForDeliveries(sql, endpoint.id, 1, (d) => d.attemptCount === 1);
    expect(delivery).toMatchObject({ status: 'pending' });
    const [attempt] = await attemptsOf(sql, { deliveryId: delivery!.id });
    expect(attempt).toMatchObject({ responseStatus: status, failureKind: 'redirect', responseBody: 'moved' });
    expect(sink.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    await stopRetries(sql, endpoint.id);
    await Promise.all([sink.close(), target.close()]);
  });

  it('an endpoint slower than DELIVERY_TIMEOUT_MS is a timeout', async () => {
    const sql = testDb.database.sql;
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink(() => 'hold');
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    await owners.workspaceEvent();
    const [delivery] = await waitForDeliveries(sql, endpoint.id, 1, (d) => d.attemptCount === 1);
    expect(delivery).toMatchObject({ status: 'pending', nextAttemptAt: new Date(clock.now().getTime() + 5 * SECOND) });
    const [attempt] = await attemptsOf(sql, { deliveryId: delivery!.id });
    expect(attempt).toMatchObject({ responseStatus: null, failureKind: 'timeout', responseBody: null });
    expect(attempt!.latencyMs).toBeGreaterThanOrEqual(290);
    expect(attempt!.latencyMs).toBeLessThan(5000);
    await stopRetries(sql, endpoint.id);
    await sink.close();
  });

  it('a refused connection is a network failure', async () => {
    const sql = testDb.database.sql;
    const owners = await createOwners(testDb.database.db);
    const endpoint = await owners.endpoint({ url: await refusedUrl() });
    await owners.workspaceEvent();
    const [delivery] = await waitForDeliveries(sql, endpoint.id, 1, (d) => d.attemptCount === 1);
    expect(delivery).toMatchObject({ status: 'pending' });
    const [attempt] = await attemptsOf(sql, { deliveryId: delivery!.id });
    expect(attempt).toMatchObject({ responseStatus: null, failureKind: 'network', responseBody: null });
    await stopRetries(sql, endpoint.id);
  });

  it('an address outside the allow-list is refused at connect time (blocked_address)', async () => {
    const sql = testDb.database.sql;
    const owners = await createOwners(testDb.database.db);
    const endpoint = await owners.endpoint({ url: 'http://169.254.169.254/latest/meta-data' });
    await owners.workspaceEvent();
    const [delivery] = await waitForDeliveries(sql, endpoint.id, 1, (d) => d.attemptCount === 1);
    const [attempt] = await attemptsOf(sql, { deliveryId: delivery!.id });
    expect(attempt).toMatchObject({ responseStatus: null, failureKind: 'blocked_address' });
    await stopRetries(sql, endpoint.id);
  });
});
