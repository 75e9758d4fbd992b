import { afterAll, beforeAll, expect, it } from 'vitest';
import { isolatedStreamNames } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { committedEventIds, describeTally, receiptCount, sinkEndpoints, waitForEveryDelivery, waitUntil, type LedgerEndpoint } from '../support/delivery-ledger.js';
import { startDispatcherProcess, type DispatcherProcess } from '../support/dispatcher-process.js';
import { writeEventsSteadily } from '../support/event-writer.js';
import { createOwners } from '../support/fixtures.js';
import { createStreamForFaults, streamNamesOf } from '../support/jetstream-probe.js';
import { startPrivateNats, type PrivateNats } from '../support/private-nats.js';

const EVENTS = 600;
const ENDPOINTS = 3;

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

it('kill -9 of one of two dispatchers mid-delivery loses nothing: its peer and a replacement finish every delivery', async () => {
  const names = isolatedStreamNames();
  await createStreamForFaults(nats.url, streamNamesOf(names), 5000);
  const owners = await createOwners(testDb.database.db);
  endpoints = await sinkEndpoints(owners, ENDPOINTS, () => ({ status: 200, delayMs: 50 + Math.floor(Math.random() * 150) }));
  const env = { DATABASE_URL: testDb.url, NATS_URL: nats.url, ...names, DELIVERY_CONCURRENCY_PER_ENDPOINT: '8' };
  const [victim, peer] = await Promise.all([startDispatcherProcess('dispatcher A', env), startDispatcherProcess('dispatcher B', env)]);
  children.push(victim, peer);

  const writer = writeEventsSteadily(testDb.database.db, owners.workspace.id, { total: EVENTS, perTransaction: 20, everyMs: 50 });
  const receipts = () => receiptCount(endpoints);
  await waitUntil(() => receipts() >= (EVENTS * ENDPOINTS) / 4, 60_000, 'a quarter of the deliveries arrived');
  victim.kill('SIGKILL');
  expect(await victim.exited).toEqual({ code: null, signal: 'SIGKILL' });
  const atKill = receipts();
  expect(atKill, 'the kill landed while deliveries were still under way').toBeLessThan(EVENTS * ENDPOINTS);

  children.push(await startDispatcherProcess('dispatcher C (replacement)', env));
  expect(await writer.done).toBe(EVENTS);
  const eventIds = await committedEventIds(testDb.database.sql, owners.workspace.id);
  expect(eventIds).toHaveLength(EVENTS);

  const tally = await waitForEveryDelivery({ sql: testDb.database.sql, eventIds, endpoints, timeoutMs: 60_000 });
  console.info(`${describeTally('kill -9 mid-delivery', EVENTS, tally)}; killed after ${atKill} receipts`);
  expect(tally.lost).toEqual([]);
  expect(tally.malformed).toEqual([]);
  expect(tally.delivered).toBe(EVENTS * ENDPOINTS);
}, 150_000);
