import { deleteWebhookEndpointWithDeliveries } from '@raffle/db';
import { expect, it } from 'vitest';
import { committedEventIds, describeTally, waitForEveryDelivery, waitUntil } from '../support/delivery-ledger.js';
import { writeEventsSteadily } from '../support/event-writer.js';
import { useFaultHarness } from '../support/fault-harness.js';

const EVENTS = 600;
const PER_ENDPOINT = 16;
/** Short, so the hung POSTs time out (and their outcomes arrive) while events are still flowing. */
const TIMEOUT_MS = 2000;
const RECORDING_FAILED = /^recording delivery attempts failed/;

const harness = useFaultHarness();

it('an endpoint deleted while its POSTs hang: their outcomes are dropped, and a healthy endpoint beside it has every delivery recorded and sent once', async () => {
  const { testDb, owners, endpoints, env } = await harness.prepare(1, () => ({ status: 204, delayMs: 5 + Math.floor(Math.random() * 20) }));
  const [healthy] = endpoints;
  const [hanging] = await harness.addEndpoints(owners, 1, () => 'hold');
  const { db, sql } = testDb.database;
  const dispatcher = await harness.spawn('dispatcher', {
    ...env,
    DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS),
    DELIVERY_CONCURRENCY_PER_ENDPOINT: String(PER_ENDPOINT),
  });

  // About 6 s of events; the hung endpoint fills its slots within the first second.
  const writer = writeEventsSteadily(db, owners.workspace.id, { total: EVENTS, perTransaction: 10, everyMs: 100 });
  await hanging!.sink.waitFor(PER_ENDPOINT, 30_000);
  expect(await db.transaction((tx) => deleteWebhookEndpointWithDeliveries(tx, hanging!.id))).toBe(true);
  // Their timeouts fire: the outcomes name deliveries deleted with the endpoint.
  await waitUntil(() => hanging!.sink.abandoned() >= PER_ENDPOINT, 30_000, 'the POSTs in flight to the deleted endpoint timed out');
  const atTimeouts = writer.committed();
  expect(atTimeouts, 'events still flow after the orphaned outcomes').toBeLessThan(EVENTS);

  const events = await writer.done;
  const eventIds = await committedEventIds(sql, owners.workspace.id);
  expect(eventIds).toHaveLength(events);
  const tally = await waitForEveryDelivery({ sql, eventIds, endpoints: [healthy!], timeoutMs: 40_000 });
  console.info(
    `${describeTally('endpoint deleted with its POSTs in flight', events, tally)}; ${hanging!.sink.received.length} POSTs reached the deleted endpoint, ${events - atTimeouts} events committed after they timed out`,
  );
  expect(tally.lost).toEqual([]);
  expect(tally.malformed).toEqual([]);
  // Sent once: every outcome was recorded before the delivery's lease could hand it out again.
  expect(tally.duplicates).toBe(0);

  const [attempts] = await sql<{ healthy: number; healthyDeliveries: number; orphaned: number }[]>`
    select count(*) filter (where endpoint_id = ${healthy!.id} and response_status = 204)::int as healthy,
           count(distinct delivery_id) filter (where endpoint_id = ${healthy!.id})::int as "healthyDeliveries",
           count(*) filter (where endpoint_id = ${hanging!.id})::int as orphaned
    from webhook_delivery_attempts`;
  expect(attempts).toEqual({ healthy: events, healthyDeliveries: events, orphaned: 0 });
  expect(dispatcher.logs().filter((l) => RECORDING_FAILED.test(l.msg ?? '')).map((l) => l.err)).toEqual([]);
}, 150_000);
