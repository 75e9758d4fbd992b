import { expect, it } from 'vitest';
import { committedEventIds, describeTally, receiptCount, waitForEveryDelivery, waitUntil } from '../support/delivery-ledger.js';
import { writeEventsSteadily } from '../support/event-writer.js';
import { useFaultHarness } from '../support/fault-harness.js';
import { streamMessageCount } from '../support/jetstream-probe.js';

const ENDPOINTS = 3;
const RELAY_WARNING = /^outbox relay: cannot publish/;
const RELAY_BACK = /^outbox relay: NATS is back/;

const harness = useFaultHarness();

it('NATS stopped while events are committed: they wait in the outbox, one warning says so, and all flow once NATS is back', async () => {
  const { testDb, nats, names, owners, endpoints, env } = await harness.prepare(ENDPOINTS, () => ({ status: 204, delayMs: 5 + Math.floor(Math.random() * 20) }));
  const dispatcher = await harness.spawn('dispatcher', env);
  const { sql } = testDb.database;
  const unpublished = async () => {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from event_outbox where workspace_id = ${owners.workspace.id} and published_at is null`;
    return row!.n;
  };

  // About 8 s of commits at 100 events/s: NATS goes away in the second second and comes back in the sixth.
  const writer = writeEventsSteadily(testDb.database.db, owners.workspace.id, { total: 800, perTransaction: 10, everyMs: 100 });
  const receipts = () => receiptCount(endpoints);
  await waitUntil(() => receipts() > 0, 30_000, 'the first deliveries arrived while NATS was up');

  await nats.stop();
  await dispatcher.waitForLog(RELAY_WARNING, 20_000);
  const committedBefore = writer.committed();
  await waitUntil(async () => writer.committed() >= committedBefore + 200, 20_000, '200 more events committed while NATS is down');
  const waiting = await unpublished();
  expect(waiting, 'events committed during the outage wait in the outbox').toBeGreaterThanOrEqual(200);

  await nats.start();
  await dispatcher.waitForLog(RELAY_BACK, 30_000);
  const events = await writer.done;
  const eventIds = await committedEventIds(sql, owners.workspace.id);
  expect(eventIds).toHaveLength(events);

  const tally = await waitForEveryDelivery({ sql, eventIds, endpoints, timeoutMs: 60_000 });
  console.info(`${describeTally('NATS stopped and restarted', events, tally)}; ${waiting} events waited in the outbox`);
  expect(tally.lost).toEqual([]);
  expect(tally.malformed).toEqual([]);
  expect(await unpublished()).toBe(0);
  expect(await streamMessageCount(nats.url, names.NATS_STREAM)).toBe(events);
  // One outage, one warning (and one line when it ends), not a line per failed round.
  expect(dispatcher.logs().filter((l) => RELAY_WARNING.test(l.msg ?? ''))).toHaveLength(1);
  expect(dispatcher.logs().filter((l) => RELAY_BACK.test(l.msg ?? ''))).toHaveLength(1);
}, 150_000);
