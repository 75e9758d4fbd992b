import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { manualClock, waitUntil } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { attemptsOf, deliveriesOf, waitForDeliveries } from './support/queries.js';
import { startSink } from './support/sink.js';

let testDb: TestDatabase;
const apps: DispatcherApp[] = [];
const clock = manualClock();

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await testDb?.drop();
});

async function startApp(overrides: Record<string, string>) {
  const app = await buildTestApp(
    testDb.database,
    testDb.url,
    { ...isolatedStreamNames(), DELIVERY_POLL_INTERVAL_MS: '3600000', DELIVERY_TIMEOUT_MS: '20000', ...overrides },
    { now: clock.now, random: () => 0.5 },
  );
  apps.push(app);
  await app.dispatcher.consumerStarted;
  return app;
}

/** Resolves with how long `promise` took, and exposes whether it has settled yet. */
function track(promise: Promise<unknown>) {
  const started = Date.now();
  const state = { settled: false, tookMs: 0 };
  const done = promise.then(() => {
    state.settled = true;
    state.tookMs = Date.now() - started;
  });
  return { state, done };
}

describe('graceful drain', () => {
  it('close() waits for the POST in flight and records it; queued deliveries are handed back unstarted', async () => {
    const sql = testDb.database.sql;
    const app = await startApp({ DELIVERY_CONCURRENCY_PER_ENDPOINT: '1', DRAIN_TIMEOUT_MS: '15000' });
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink(() => (sink.received.length === 1 ? 'hold' : { status: 200 }));
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    await owners.workspaceEvents(3);
    await sink.waitFor(1);
    await waitUntil('one POST in flight and two queued', () => {
      const stats = app.dispatcher.worker.stats();
      return stats.running === 1 && stats.queued === 2;
    });
    const inFlightEvent = sink.received[0]!.headers['webhook-id'];

    const closing = track(app.close());
    const handedBack = await waitUntil('the queued deliveries to be handed back', async () => {
      const rows = (await deliveriesOf(sql, { endpointId: endpoint.id })).filter((d) => d.eventId !== inFlightEvent);
      return rows.every((d) => d.nextAttemptAt !== null && d.nextAttemptAt.getTime() <= clock.now().getTime()) ? rows : undefined;
    });
    expect(handedBack).toHaveLength(2);
    expect(handedBack.every((d) => d.status === 'pending' && d.attemptCount === 0)).toBe(true);
    expect(closing.state.settled).toBe(false);

    sink.release(200);
    await closing.done;
    const [inFlight] = await deliveriesOf(sql, { eventId: inFlightEvent as string });
    expect(inFlight).toMatchObject({ status: 'succeeded', attemptCount: 1 });
    expect(await attemptsOf(sql, { deliveryId: inFlight!.id })).toMatchObject([{ attemptNumber: 1, responseStatus: 200, failureKind: null }]);
    expect(sink.received).toHaveLength(1);

    // Another instance takes the handed-back deliveries at its next poll (its first runs as it starts).
    await startApp({});
    await waitForDeliveries(sql, endpoint.id, 3, (d) => d.status === 'succeeded');
    expect(sink.received).toHaveLength(3);
    await sink.close();
  });

  it('close() gives up on a POST still in flight after DRAIN_TIMEOUT_MS; its lease hands it to another instance later', async () => {
    const sql = testDb.database.sql;
    const app = await startApp({ DRAIN_TIMEOUT_MS: '300' });
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink(() => 'hold');
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    await owners.workspaceEvent();
    await sink.waitFor(1);

    const closing = track(app.close());
    await closing.done;
    // Bounded by the drain timeout (plus shutdown work), not by the 20 s delivery timeout.
    expect(closing.state.tookMs).toBeLessThan(5000);
    const [delivery] = await deliveriesOf(sql, { endpointId: endpoint.id });
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 0 });
    expect(delivery!.nextAttemptAt!.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(await attemptsOf(sql, { deliveryId: delivery!.id })).toEqual([]);
    await sink.close();
  });
});
