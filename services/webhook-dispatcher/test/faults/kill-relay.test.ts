import { expect, it } from 'vitest';
import { committedEventIds, describeTally, waitForEveryDelivery } from '../support/delivery-ledger.js';
import { writeEventsSteadily } from '../support/event-writer.js';
import { useFaultHarness } from '../support/fault-harness.js';
import { streamMessageCount } from '../support/jetstream-probe.js';

const EVENTS = 300;
const ENDPOINTS = 3;
const KILLED_BATCH = 3;

const harness = useFaultHarness();

it('the relay killed between publishing a batch and marking it: the batch is published again, and still delivered once per endpoint', async () => {
  const { testDb, nats, names, owners, endpoints, env } = await harness.prepare(ENDPOINTS, () => ({ status: 200, delayMs: 5 + Math.floor(Math.random() * 20) }));
  const { sql } = testDb.database;
  const base = { ...env, RELAY_BATCH_SIZE: '25' };
  // The relay and the consumer in separate processes, so killing the relay leaves delivery running.
  await harness.spawn('consumer', { ...base, RELAY_ENABLED: 'false' });
  const relay = await harness.spawn('relay (armed)', { ...base, CONSUMER_ENABLED: 'false', FAULT_KILL_AFTER_RELAY_BATCH: String(KILLED_BATCH) });

  const writer = writeEventsSteadily(testDb.database.db, owners.workspace.id, { total: EVENTS, perTransaction: 10, everyMs: 30 });
  expect(await relay.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(relay.logs().some((l) => l.msg === 'fault: SIGKILL after publishing relay batch')).toBe(true);

  // The killed batch is in the stream but its outbox rows are still unpublished.
  const [marked] = await sql<{ n: number }[]>`
    select count(*)::int as n from event_outbox where workspace_id = ${owners.workspace.id} and published_at is not null`;
  const inStream = await streamMessageCount(nats.url, names.NATS_STREAM);
  expect(inStream, 'published but not marked at the kill').toBeGreaterThan(marked!.n);

  await harness.spawn('relay (restarted)', { ...base, CONSUMER_ENABLED: 'false' });
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
