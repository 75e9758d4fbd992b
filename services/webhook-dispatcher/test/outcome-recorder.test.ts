import { deleteWebhookEndpointWithDeliveries, insertFanOutDeliveries, newId } from '@raffle/db';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptOutcome } from '../src/delivery/attempt-outcome.js';
import { createOutcomeRecorder } from '../src/delivery/outcome-recorder.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { attemptsOf, deliveriesOf } from './support/queries.js';

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.drop();
});

/** A logger whose lines the test reads. */
function capturedLog() {
  const lines: Array<{ level: number; msg: string; deliveryId?: string }> = [];
  const log = pino({ level: 'trace' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { log, lines };
}

async function pendingDeliveries(endpointId: string, count: number): Promise<string[]> {
  const now = new Date();
  const deliveries = Array.from({ length: count }, () => ({
    id: newId('webhookDelivery', now.getTime()),
    endpointId,
    eventId: newId('event', now.getTime()),
    eventType: 'raffle.published',
    leased: true,
  }));
  return insertFanOutDeliveries(testDb.database.sql, { deliveries, now, leasedUntil: new Date(now.getTime() + 60_000) });
}

const succeeded = (deliveryId: string, endpointId: string, overrides: Partial<AttemptOutcome> = {}): AttemptOutcome => ({
  deliveryId,
  endpointId,
  attemptNumber: 1,
  succeeded: true,
  responseStatus: 200,
  failureKind: null,
  latencyMs: 12,
  responseBody: null,
  at: new Date(),
  deliveryStatus: 'succeeded',
  nextAttemptAt: null,
  gone: false,
  ...overrides,
});

describe('outcome recorder', () => {
  it('drops the outcomes of deliveries deleted with their endpoint and records the rest of their batch', async () => {
    const { sql, db } = testDb.database;
    const owners = await createOwners(db);
    const kept = await owners.endpoint({ url: 'https://example.com/kept' });
    const deleted = await owners.endpoint({ url: 'https://example.com/deleted' });
    const keptIds = await pendingDeliveries(kept.id, 3);
    const deletedIds = await pendingDeliveries(deleted.id, 3);
    await db.transaction((tx) => deleteWebhookEndpointWithDeliveries(tx, deleted.id));
    const { log, lines } = capturedLog();
    const recorder = createOutcomeRecorder({ sql, log, autoDisableAfterMs: 60_000 });

    await Promise.all([...keptIds.map((id) => recorder.record(succeeded(id, kept.id))), ...deletedIds.map((id) => recorder.record(succeeded(id, deleted.id)))]);

    expect((await deliveriesOf(sql, { endpointId: kept.id })).map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(await attemptsOf(sql, { endpointId: kept.id })).toHaveLength(3);
    expect(await attemptsOf(sql, { endpointId: deleted.id })).toEqual([]);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  });

  it('isolates an outcome Postgres refuses: logged once and dropped, its batch and the next recorded', async () => {
    const { sql, db } = testDb.database;
    const owners = await createOwners(db);
    const endpoint = await owners.endpoint({ url: 'https://example.com/hook' });
    const ids = await pendingDeliveries(endpoint.id, 6);
    const { log, lines } = capturedLog();
    const recorder = createOutcomeRecorder({ sql, log, autoDisableAfterMs: 60_000, flushDelayMs: 1000 });

    // A latency beyond the int column's range: this one row fails every statement it is in.
    const poison = ids[2]!;
    const first = ids.slice(0, 5).map((id) => recorder.record(succeeded(id, endpoint.id, id === poison ? { latencyMs: 3e9 } : {})));
    await recorder.flush();
    await Promise.all(first);
    const next = recorder.record(succeeded(ids[5]!, endpoint.id));
    await recorder.flush();
    await next;

    const byId = new Map((await deliveriesOf(sql, { endpointId: endpoint.id })).map((d) => [d.id, d.status]));
    expect(ids.map((id) => byId.get(id))).toEqual(['succeeded', 'succeeded', 'pending', 'succeeded', 'succeeded', 'succeeded']);
    expect((await attemptsOf(sql, { endpointId: endpoint.id })).map((a) => a.deliveryId).sort()).toEqual(ids.filter((id) => id !== poison).sort());
    const warnings = lines.filter((l) => l.level >= 40);
    expect(warnings.map((l) => [l.msg, l.deliveryId])).toEqual([['a delivery attempt could not be recorded; dropped (its lease sends the delivery again)', poison]]);
  });
});
