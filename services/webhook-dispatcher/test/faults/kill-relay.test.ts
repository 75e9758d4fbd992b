import { afterAll, beforeAll, expect, it } from 'vitest';
import { isolatedStreamNames } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { committedEventIds, describeTally, sinkEndpoints, waitForEveryDelivery, type LedgerEndpoint } from '../support/delivery-ledger.js';
import { startDispatcherProcess, type DispatcherProcess } from '../support/dispatcher-process.js';
import { writeEventsSteadily } from '../support/event-writer.js';
import { createOwners } from '../support/fixtures.js';
import { createStreamForFaults, streamMessageCount, streamNamesOf } from '../support/jetstream-probe.js';
import { startPrivateNats, type PrivateNats } from '../support/private-nats.js';

const EVENTS = 300;
const ENDPOINTS = 3;
const KILLED_BATCH = 3;

let testDb: TestDatabase;
let nats: PrivateNats;
const children: DispatcherProcess[] = [];
let endpoints: LedgerEndpoint[] = [];

beforeAll(async () => {
  [testDb, nats] = await Promise.all([createTestDatabase(), startPrivateNats()]);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  await Promise.all(endpoints.map((e) => e.sink.close()));
  await nats?.destroy();
  await testDb?.drop();
});

it('the relay killed between publishing a batch and marking it: the batch is published again, and still delivered once per endpoint', async () => {
  const names = isolatedStreamNames();
  await createStreamForFaults(nats.url, streamNamesOf(names), 5000);
  const owners = await createOwners(testDb.database.db);
  endpoints = await sinkEndpoints(owners, ENDPOINTS, () => ({ status: 200, delayMs: 5 + Math.floor(Math.random() * 20) }));
  const { sql } = testDb.database;
  const base = { DATABASE_URL: testDb.url, NATS_URL: nats.url, ...names, RELAY_BATCH_SIZE: '25' };
  // The relay and the consumer in separate processes, so killing the relay leaves delivery running.
  const consumer = await startDispatcherProcess('consumer', { ...base, RELAY_ENABLED: 'false' });
  const relay = await startDispatcherProcess('relay (armed)', { ...base, CONSUMER_ENABLED: 'false', FAULT_KILL_AFTER_RELAY_BATCH: String(KILLED_BATCH) });
  children.push(consumer, relay);

  const writer = writeEventsSteadily(testDb.database.db, owners.workspace.id, { total: EVENTS, perTransaction: 10, everyMs: 30 });
  expect(await relay.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(relay.logs().some((l) => l.msg === 'fault: SIGKILL after publishing relay batch')).toBe(true);

  // The killed batch is in the stream but its outbox rows are still unpublished.
  const [marked] = await sql<{ n: number }[]>`
    select count(*)::int as n from event_outbox where workspace_id = ${owners.workspace.id} and published_at is not null`;
  const inStream = await streamMessageCount(nats.url, names.NATS_STREAM);
  expect(inStream, 'published but not marked at the kill').toBeGreaterThan(marked!.n);

  children.push(await startDispatcherProcess('relay (restarted)', { ...base, CONSUMER_ENABLED: 'false' }));
  expect(await writer.done).toBe(EVENTS);
  const eventIds = await committedEventIds(sql, owners.workspace.id);
  expect(eventIds).toHaveLength(EVENTS);

  const tally = await waitForEveryDelivery({ sql, eventIds, endpoints, timeoutMs: 60_000 });
  console.info(
    `${describeTally('relay killed between publish and mark', EVENTS, tally)}; ${inStream - marked!.n} events published unmarked at the kill, then published again`,
  );
  expect(tally.lost).toEqual([]);
  expect(tally.malformed).toEqual([]);
  // The restarted relay published and marked the killed batch again (nothing is left unmarked);
  // within the duplicate window JetStream kept one message per event.
  const [unmarked] = await sql<{ n: number }[]>`
    select count(*)::int as n from event_outbox where workspace_id = ${owners.workspace.id} and published_at is null`;
  expect(unmarked!.n).toBe(0);
  expect(await streamMessageCount(nats.url, names.NATS_STREAM)).toBe(EVENTS);
  const [deliveries] = await sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where endpoint_id = any(${endpoints.map((e) => e.id)})`;
  expect(deliveries!.n).toBe(EVENTS * ENDPOINTS);
}, 150_000);
