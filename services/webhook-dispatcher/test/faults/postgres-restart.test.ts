import { expect, it } from 'vitest';
import { committedEventIds, describeTally, receiptCount, waitForEveryDelivery, waitUntil } from '../support/delivery-ledger.js';
import { deliveryDelays, describeDelays } from '../support/delivery-delay.js';
import { writeEventsSteadily } from '../support/event-writer.js';
import { useFaultHarness } from '../support/fault-harness.js';

const EVENTS = 60;
const ENDPOINTS = 3;
/** Few POSTs at once and slow answers: each endpoint keeps a queue in the worker through the outage. */
const PER_ENDPOINT = 4;
const CRASHED = /^delivery attempt crashed/;
/** Far below the 5-minute lease a failed attempt used to wait out, far above the 5 s retry slot and the lease that bounds it now. */
const BOUND_MS = 60_000;

const harness = useFaultHarness({ ownPostgres: true });

it('Postgres restarted while deliveries are claimed: a delivery whose attempt failed on it is sent again within seconds, not after its lease', async () => {
  const { testDb, owners, endpoints, env } = await harness.prepare(ENDPOINTS, () => ({ status: 200, delayMs: 300 + Math.floor(Math.random() * 300) }));
  const dispatcher = await harness.spawn('dispatcher', { ...env, DELIVERY_CONCURRENCY_PER_ENDPOINT: String(PER_ENDPOINT) });
  const { db, sql } = testDb.database;
  const writer = writeEventsSteadily(db, owners.workspace.id, { total: EVENTS, perTransaction: 20, everyMs: 100 });
  expect(await writer.done).toBe(EVENTS);
  const eventIds = await committedEventIds(sql, owners.workspace.id);
  await waitUntil(() => receiptCount(endpoints) >= ENDPOINTS * PER_ENDPOINT, 30_000, 'the first deliveries arrived');

  await harness.postgres().stop('fast');
  // The queued deliveries keep starting; once the endpoint cache is a second old, their lookup fails.
  const firstCrash = await dispatcher.waitForLog(CRASHED, 30_000);
  await harness.postgres().start();

  const tally = await waitForEveryDelivery({ sql, eventIds, endpoints, timeoutMs: 120_000 });
  const crashes = dispatcher.logs().filter((l) => CRASHED.test(l.msg ?? ''));
  const crashedDelays = await delaysAfterCrash(sql, crashes, endpoints);
  console.info(
    `${describeTally('Postgres restarted with deliveries claimed', EVENTS, tally)}; ${crashes.length} attempts failed on the database; ` +
      `their deliveries arrived after the failure within p99 ${(crashedDelays.p99Ms / 1000).toFixed(1)} s, max ${(crashedDelays.maxMs / 1000).toFixed(1)} s`,
  );
  console.info(describeDelays('Postgres restarted with deliveries claimed', await deliveryDelays(sql, eventIds, endpoints)));
  expect(firstCrash).toBeDefined();
  expect(tally.lost).toEqual([]);
  expect(tally.malformed).toEqual([]);
  expect(crashedDelays.maxMs, 'a failed attempt waits for a retry slot, not for its lease').toBeLessThan(BOUND_MS);
}, 240_000);

/**
 * For each attempt that failed on the database (its log line names the delivery and its time),
 * how long until its webhook reached the endpoint.
 */
async function delaysAfterCrash(
  sql: Parameters<typeof committedEventIds>[0],
  crashes: ReadonlyArray<Record<string, unknown>>,
  endpoints: Parameters<typeof receiptCount>[0],
): Promise<{ p99Ms: number; maxMs: number }> {
  const crashedAt = new Map<string, number>();
  for (const line of crashes) {
    const id = String(line.deliveryId);
    crashedAt.set(id, Math.max(crashedAt.get(id) ?? 0, Number(line.time)));
  }
  const rows = await sql<{ id: string; endpointId: string; eventId: string }[]>`
    select id, endpoint_id as "endpointId", event_id as "eventId" from webhook_deliveries where id = any(${[...crashedAt.keys()]})`;
  const delays = rows
    .map((row) => {
      const receipts = endpoints.find((e) => e.id === row.endpointId)?.sink.received ?? [];
      const after = receipts.filter((r) => r.headers['webhook-id'] === row.eventId && r.at >= crashedAt.get(row.id)!);
      return after.length === 0 ? Number.POSITIVE_INFINITY : after[0]!.at - crashedAt.get(row.id)!;
    })
    .sort((a, b) => a - b);
  const at = (q: number) => (delays.length === 0 ? 0 : delays[Math.min(delays.length - 1, Math.ceil(q * delays.length) - 1)]!);
  return { p99Ms: at(0.99), maxMs: at(1) };
}
