import { applyDeliveryAttemptResults, insertDeliveryAttempts, newId, schema } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { as, createEndpoint, freshOwners, LOCAL_SINK_CONFIG, type OwnerCase, type Page } from './support/webhook-endpoints.js';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, LOCAL_SINK_CONFIG);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const HOUR = 3600_000;
const DAY = 24 * HOUR;

type OutboxRow = { id: string; type: string; user_id: string | null; workspace_id: string | null; endpoint_id: string | null; payload: string };
const outboxRowsOf = (endpointId: string) =>
  testDb.database.sql<OutboxRow[]>`select id, type, user_id, workspace_id, endpoint_id, payload from event_outbox where endpoint_id = ${endpointId} order by seq`;

type DeliveryRow = { status: string; next_attempt_at: string | null; attempt_count: number };
const deliveryRow = async (id: string) =>
  (await testDb.database.sql<DeliveryRow[]>`select status, next_attempt_at::text, attempt_count from webhook_deliveries where id = ${id}`)[0]!;

type Attempt = {
  id: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  attemptNumber: number;
  status: 'succeeded' | 'failed';
  responseStatus?: number;
  failureKind?: string;
  latencyMs: number;
  responseBody?: string;
  payload?: string;
  createdAt: string;
  deliveryStatus: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt?: string;
};
type Delivery = { id: string; eventId: string; eventType: string; status: string; attemptCount: number; nextAttemptAt?: string };

/** A delivery as the dispatcher would leave it, with its attempts, written directly. */
async function seedDelivery(
  endpointId: string,
  args: {
    status: 'pending' | 'succeeded' | 'failed';
    createdAt?: Date;
    nextAttemptAt?: Date | null;
    eventType?: string;
    /** An event written before (a test event's), instead of a new id with no outbox row. */
    eventId?: string;
    attempts?: Array<{ responseStatus?: number; failureKind?: string; responseBody?: string; latencyMs?: number }>;
  },
) {
  const createdAt = args.createdAt ?? new Date();
  const attempts = args.attempts ?? [];
  const id = newId('webhookDelivery', createdAt.getTime());
  const eventId = args.eventId ?? newId('event', createdAt.getTime());
  await testDb.database.db.insert(schema.webhookDeliveries).values({
    id,
    endpointId,
    eventId,
    eventType: args.eventType ?? 'entry.created',
    status: args.status,
    attemptCount: attempts.length,
    nextAttemptAt: args.nextAttemptAt ?? null,
    lastAttemptAt: attempts.length > 0 ? createdAt : null,
    createdAt,
    updatedAt: createdAt,
  });
  const attemptIds: string[] = [];
  for (const [i, attempt] of attempts.entries()) {
    const at = new Date(createdAt.getTime() + i * 1000);
    const attemptId = newId('webhookAttempt', at.getTime());
    attemptIds.push(attemptId);
    await testDb.database.db.insert(schema.webhookDeliveryAttempts).values({
      id: attemptId,
      deliveryId: id,
      endpointId,
      attemptNumber: i + 1,
      responseStatus: attempt.responseStatus ?? null,
      failureKind: attempt.failureKind ?? null,
      latencyMs: attempt.latencyMs ?? 120,
      responseBody: attempt.responseBody ?? null,
      createdAt: at,
    });
  }
  return { id, eventId, attemptIds };
}

const FAILED_TWICE = [
  { failureKind: 'http_status', responseStatus: 503, responseBody: 'upstream unavailable' },
  { failureKind: 'timeout', latencyMs: 15_000 },
];

describe.each(['personal', 'workspace'] as const)('%s endpoints: test events', (kind) => {
  let owner: OwnerCase;
  beforeAll(async () => {
    owner = (await freshOwners(testDb.database))[kind];
  });

  it('writes exactly one webhook.test outbox row for the endpoint and its owner', async () => {
    const endpoint = await createEndpoint(app, owner);
    const res = await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/test`, headers: as(owner.userId) });
    expect(res.statusCode, res.body).toBe(202);
    expectSchema('WebhookTestEvent', res.json());
    const { eventId } = res.json() as { eventId: string };
    expect(eventId).toMatch(/^evt_/);
    const rows = await outboxRowsOf(endpoint.id);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row!.id).toBe(eventId);
    expect(row!.type).toBe('webhook.test');
    expect(row!.endpoint_id).toBe(endpoint.id);
    if (kind === 'personal') expect(row).toMatchObject({ user_id: owner.userId, workspace_id: null });
    else expect(row).toMatchObject({ user_id: null, workspace_id: owner.base.split('/')[4] });
    const payload = JSON.parse(row!.payload) as { type: string; timestamp: string; data: unknown };
    expectSchema('EventEnvelope', payload);
    expect(payload.type).toBe('webhook.test');
    expect(payload.data).toEqual({ endpointId: endpoint.id, message: 'This is a test event from the raffle platform' });
  });

  it('each test is its own event, even when sent at once', async () => {
    const endpoint = await createEndpoint(app, owner);
    const sent = await Promise.all(
      Array.from({ length: 5 }, () => app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/test`, headers: as(owner.userId), payload: {} })),
    );
    const ids = sent.map((res) => (res.json() as { eventId: string }).eventId);
    expect(new Set(ids).size).toBe(5);
    expect((await outboxRowsOf(endpoint.id)).map((r) => r.id).sort()).toEqual([...ids].sort());
  });

  it('a disabled endpoint gets no test event (409)', async () => {
    const endpoint = await createEndpoint(app, owner, { enabled: false });
    const res = await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/test`, headers: as(owner.userId) });
    expect(String(expectManagementError(res, 409).message)).toContain('disabled');
    expect(await outboxRowsOf(endpoint.id)).toEqual([]);
    expectManagementError(await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/test`, headers: as(owner.userId), payload: { loud: true } }), 400);
  });
});

describe.each(['personal', 'workspace'] as const)('%s endpoints: the delivery log', (kind) => {
  let owner: OwnerCase;
  beforeAll(async () => {
    owner = (await freshOwners(testDb.database))[kind];
  });

  it('lists attempts newest first with their delivery state', async () => {
    const endpoint = await createEndpoint(app, owner);
    const now = Date.now();
    const failing = await seedDelivery(endpoint.id, {
      status: 'pending',
      createdAt: new Date(now - 2 * HOUR),
      nextAttemptAt: new Date(now + 30 * 60_000),
      eventType: 'entry.updated',
      attempts: FAILED_TWICE,
    });
    const delivered = await seedDelivery(endpoint.id, {
      status: 'succeeded',
      createdAt: new Date(now - HOUR),
      attempts: [{ responseStatus: 204, responseBody: '', latencyMs: 35 }],
    });
    const res = await app.inject({ method: 'GET', url: `${owner.base}/${endpoint.id}/deliveries`, headers: as(owner.userId) });
    expect(res.statusCode, res.body).toBe(200);
    expectSchema('WebhookDeliveryAttemptPage', res.json());
    const page = res.json() as Page<Attempt>;
    expect(page.pagination).toEqual({ nextCursor: null, hasMore: false });
    expect(page.data.map((a) => a.id)).toEqual([delivered.attemptIds[0], failing.attemptIds[1], failing.attemptIds[0]]);
    expect(page.data[0]).toEqual({
      id: delivered.attemptIds[0],
      deliveryId: delivered.id,
      eventId: delivered.eventId,
      eventType: 'entry.created',
      attemptNumber: 1,
      status: 'succeeded',
      responseStatus: 204,
      latencyMs: 35,
      responseBody: '',
      createdAt: new Date(now - HOUR).toISOString(),
      deliveryStatus: 'succeeded',
    });
    expect(page.data[1]).toMatchObject({
      deliveryId: failing.id,
      eventId: failing.eventId,
      eventType: 'entry.updated',
      attemptNumber: 2,
      status: 'failed',
      failureKind: 'timeout',
      latencyMs: 15_000,
      deliveryStatus: 'pending',
      nextAttemptAt: new Date(now + 30 * 60_000).toISOString(),
    });
    expect(page.data[1]).not.toHaveProperty('responseStatus');
    expect(page.data[1]).not.toHaveProperty('responseBody');
    expect(page.data[2]).toMatchObject({ attemptNumber: 1, status: 'failed', failureKind: 'http_status', responseStatus: 503, responseBody: 'upstream unavailable' });

    const filtered = await app.inject({ method: 'GET', url: `${owner.base}/${endpoint.id}/deliveries?deliveryId=${failing.id}`, headers: as(owner.userId) });
    expect((filtered.json() as Page<Attempt>).data.map((a) => a.id)).toEqual([failing.attemptIds[1], failing.attemptIds[0]]);
    const unknown = await app.inject({ method: 'GET', url: `${owner.base}/${endpoint.id}/deliveries?deliveryId=whd_01JZZZZZZZZZZZZZZZZZZZZZZZ`, headers: as(owner.userId) });
    expect((unknown.json() as Page<Attempt>).data).toEqual([]);
  });

  it('each attempt shows the payload it sent: the event as stored, the same for every attempt of its delivery', async () => {
    const endpoint = await createEndpoint(app, owner);
    const sent = await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/test`, headers: as(owner.userId) });
    const { eventId } = sent.json() as { eventId: string };
    const [event] = await outboxRowsOf(endpoint.id);
    const delivery = await seedDelivery(endpoint.id, { status: 'succeeded', eventId, eventType: 'webhook.test', attempts: [FAILED_TWICE[0]!, { responseStatus: 200 }] });

    const res = await app.inject({ method: 'GET', url: `${owner.base}/${endpoint.id}/deliveries?deliveryId=${delivery.id}`, headers: as(owner.userId) });
    expect(res.statusCode, res.body).toBe(200);
    expectSchema('WebhookDeliveryAttemptPage', res.json());
    const attempts = (res.json() as Page<Attempt>).data;
    expect(attempts.map((a) => a.payload)).toEqual([event!.payload, event!.payload]);
    expect(JSON.parse(attempts[0]!.payload!)).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id } });
  });

  it('each attempt keeps the next attempt it scheduled: a later retry does not overwrite it', async () => {
    const endpoint = await createEndpoint(app, owner);
    const now = Date.now();
    const delivery = await seedDelivery(endpoint.id, { status: 'pending', createdAt: new Date(now - 10 * 60_000), nextAttemptAt: new Date(now - 10 * 60_000) });
    // Recorded as the dispatcher's recorder records them: the attempt, then its delivery's new state.
    const fail = async (attemptNumber: number, at: Date, nextAttemptAt: Date) => {
      const outcome = { deliveryId: delivery.id, endpointId: endpoint.id, attemptNumber, responseStatus: 503, failureKind: 'http_status', latencyMs: 40, responseBody: null, nextAttemptAt, at };
      await insertDeliveryAttempts(testDb.database.sql, [outcome]);
      await applyDeliveryAttemptResults(testDb.database.sql, [{ ...outcome, deliveryStatus: 'pending' }]);
    };
    const first = { at: new Date(now - 5 * 60_000), next: new Date(now - 5 * 60_000 + 5_000) };
    const second = { at: new Date(now - 60_000), next: new Date(now - 60_000 + 5 * 60_000) };
    await fail(1, first.at, first.next);
    await fail(2, second.at, second.next);

    const res = await app.inject({ method: 'GET', url: `${owner.base}/${endpoint.id}/deliveries?deliveryId=${delivery.id}`, headers: as(owner.userId) });
    expect(res.statusCode, res.body).toBe(200);
    expectSchema('WebhookDeliveryAttemptPage', res.json());
    const attempts = (res.json() as Page<Attempt>).data;
    expect(attempts.map((a) => [a.attemptNumber, a.nextAttemptAt])).toEqual([
      [2, second.next.toISOString()],
      [1, first.next.toISOString()],
    ]);
  });

  it("shows one endpoint's attempts only and walks them page by page", async () => {
    const endpoint = await createEndpoint(app, owner);
    const other = await createEndpoint(app, owner);
    const base = Date.now() - DAY;
    const expected: string[] = [];
    for (let i = 0; i < 4; i++) {
      const seeded = await seedDelivery(endpoint.id, { status: 'failed', createdAt: new Date(base + i * 60_000), attempts: FAILED_TWICE });
      expected.push(...seeded.attemptIds);
    }
    await seedDelivery(other.id, { status: 'failed', createdAt: new Date(base), attempts: FAILED_TWICE });
    const url = `${owner.base}/${endpoint.id}/deliveries`;
    const seen: string[] = [];
    let cursor: string | null = null;
    let firstCursor: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const query: string = `limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await app.inject({ method: 'GET', url: `${url}?${query}`, headers: as(owner.userId) });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Page<Attempt>;
      expectSchema('WebhookDeliveryAttemptPage', page);
      seen.push(...page.data.map((a) => a.id));
      cursor = page.pagination.nextCursor;
      firstCursor ??= cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual([...expected].sort().reverse());
    // Cursors are bound to the endpoint and the filter.
    expectManagementError(await app.inject({ method: 'GET', url: `${owner.base}/${other.id}/deliveries?cursor=${encodeURIComponent(firstCursor!)}`, headers: as(owner.userId) }), 400);
    expectManagementError(
      await app.inject({ method: 'GET', url: `${url}?deliveryId=whd_01JZZZZZZZZZZZZZZZZZZZZZZZ&cursor=${encodeURIComponent(firstCursor!)}`, headers: as(owner.userId) }),
      400,
    );
    for (const query of ['limit=0', 'limit=101', 'deliveryId=', 'status=failed']) {
      expectManagementError(await app.inject({ method: 'GET', url: `${url}?${query}`, headers: as(owner.userId) }), 400);
    }
  });
});

describe.each(['personal', 'workspace'] as const)('%s endpoints: retry and recover', (kind) => {
  let owner: OwnerCase;
  beforeAll(async () => {
    owner = (await freshOwners(testDb.database))[kind];
  });

  it('retry makes a failed delivery pending and due now', async () => {
    const endpoint = await createEndpoint(app, owner);
    const failed = await seedDelivery(endpoint.id, { status: 'failed', createdAt: new Date(Date.now() - DAY), attempts: FAILED_TWICE });
    const before = Date.now();
    const res = await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/deliveries/${failed.id}/retry`, headers: as(owner.userId) });
    expect(res.statusCode, res.body).toBe(202);
    expectSchema('WebhookDelivery', res.json());
    const delivery = res.json() as Delivery;
    expect(delivery).toMatchObject({ id: failed.id, eventId: failed.eventId, eventType: 'entry.created', status: 'pending', attemptCount: 2 });
    expect(Math.abs(Date.parse(delivery.nextAttemptAt!) - before)).toBeLessThan(5000);
    const row = await deliveryRow(failed.id);
    expect(row.status).toBe('pending');
    expect(Date.parse(row.next_attempt_at!)).toBeLessThanOrEqual(Date.now());
    expect(row.attempt_count).toBe(2);
  });

  it('retry brings a pending delivery forward', async () => {
    const endpoint = await createEndpoint(app, owner);
    const waiting = await seedDelivery(endpoint.id, { status: 'pending', nextAttemptAt: new Date(Date.now() + 5 * HOUR), attempts: FAILED_TWICE });
    const res = await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/deliveries/${waiting.id}/retry`, headers: as(owner.userId), payload: {} });
    expect(res.statusCode).toBe(202);
    expect(Date.parse((res.json() as Delivery).nextAttemptAt!)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse((await deliveryRow(waiting.id)).next_attempt_at!)).toBeLessThanOrEqual(Date.now());
  });

  it("retry of an unknown delivery, or another endpoint's, is 404", async () => {
    const endpoint = await createEndpoint(app, owner);
    const other = await createEndpoint(app, owner);
    const theirs = await seedDelivery(other.id, { status: 'failed', attempts: FAILED_TWICE });
    for (const deliveryId of [theirs.id, 'whd_01JZZZZZZZZZZZZZZZZZZZZZZZ', 'nope']) {
      const res = await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/deliveries/${deliveryId}/retry`, headers: as(owner.userId) });
      expectManagementError(res, 404);
    }
    expect((await deliveryRow(theirs.id)).status).toBe('failed');
    expectManagementError(
      await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/deliveries/${theirs.id}/retry`, headers: as(owner.userId), payload: { now: true } }),
      400,
    );
  });

  it('recover requeues the failed deliveries created since the given time', async () => {
    const endpoint = await createEndpoint(app, owner);
    const other = await createEndpoint(app, owner);
    const now = Date.now();
    const recent = await seedDelivery(endpoint.id, { status: 'failed', createdAt: new Date(now - 2 * DAY), attempts: FAILED_TWICE });
    const atSince = await seedDelivery(endpoint.id, { status: 'failed', createdAt: new Date(now - 3 * DAY), attempts: FAILED_TWICE });
    const older = await seedDelivery(endpoint.id, { status: 'failed', createdAt: new Date(now - 10 * DAY), attempts: FAILED_TWICE });
    const delivered = await seedDelivery(endpoint.id, { status: 'succeeded', createdAt: new Date(now - DAY), attempts: [{ responseStatus: 200 }] });
    const pending = await seedDelivery(endpoint.id, { status: 'pending', createdAt: new Date(now - DAY), nextAttemptAt: new Date(now + HOUR), attempts: FAILED_TWICE });
    const elsewhere = await seedDelivery(other.id, { status: 'failed', createdAt: new Date(now - DAY), attempts: FAILED_TWICE });

    const since = new Date(now - 3 * DAY).toISOString();
    const res = await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/recover`, headers: as(owner.userId), payload: { since } });
    expect(res.statusCode, res.body).toBe(202);
    expectSchema('RecoveredWebhookDeliveries', res.json());
    expect(res.json()).toEqual({ requeued: 2 });
    for (const requeued of [recent, atSince]) {
      const row = await deliveryRow(requeued.id);
      expect(row.status).toBe('pending');
      expect(Date.parse(row.next_attempt_at!)).toBeLessThanOrEqual(Date.now());
    }
    expect((await deliveryRow(older.id)).status).toBe('failed');
    expect((await deliveryRow(delivered.id)).status).toBe('succeeded');
    expect((await deliveryRow(elsewhere.id)).status).toBe('failed');
    const stillWaiting = await deliveryRow(pending.id);
    expect(Date.parse(stillWaiting.next_attempt_at!)).toBeGreaterThan(Date.now());

    const again = await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/recover`, headers: as(owner.userId), payload: { since } });
    expect(again.json()).toEqual({ requeued: 0 });
  });

  it('recover refuses a since in the future, beyond 30 days or malformed', async () => {
    const endpoint = await createEndpoint(app, owner);
    const url = `${owner.base}/${endpoint.id}/recover`;
    const now = Date.now();
    const refused: unknown[] = [
      { since: new Date(now + HOUR).toISOString() },
      { since: new Date(now - 31 * DAY).toISOString() },
      { since: 'yesterday' },
      { since: 1_700_000_000_000 },
      {},
      { since: new Date(now - DAY).toISOString(), status: 'failed' },
    ];
    for (const payload of refused) {
      expectManagementError(await app.inject({ method: 'POST', url, headers: as(owner.userId), payload: payload as object }), 400);
    }
    expectManagementError(await app.inject({ method: 'POST', url, headers: as(owner.userId) }), 400);
    const edge = await app.inject({ method: 'POST', url, headers: as(owner.userId), payload: { since: new Date(now - 29 * DAY).toISOString() } });
    expect(edge.statusCode).toBe(202);
  });

  it('a disabled endpoint refuses retry and recover (409) until it is enabled again', async () => {
    const endpoint = await createEndpoint(app, owner);
    const failed = await seedDelivery(endpoint.id, { status: 'failed', createdAt: new Date(Date.now() - HOUR), attempts: FAILED_TWICE });
    await app.inject({ method: 'PATCH', url: `${owner.base}/${endpoint.id}`, headers: as(owner.userId), payload: { enabled: false } });
    const since = new Date(Date.now() - DAY).toISOString();
    const retry = await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/deliveries/${failed.id}/retry`, headers: as(owner.userId) });
    expect(String(expectManagementError(retry, 409).message)).toContain('disabled');
    expectManagementError(await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/recover`, headers: as(owner.userId), payload: { since } }), 409);
    expect((await deliveryRow(failed.id)).status).toBe('failed');
    await app.inject({ method: 'PATCH', url: `${owner.base}/${endpoint.id}`, headers: as(owner.userId), payload: { enabled: true } });
    const recovered = await app.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/recover`, headers: as(owner.userId), payload: { since } });
    expect(recovered.json()).toEqual({ requeued: 1 });
  });

  it('deleting an endpoint deletes its deliveries and attempts', async () => {
    const endpoint = await createEndpoint(app, owner);
    const seeded = await seedDelivery(endpoint.id, { status: 'failed', attempts: FAILED_TWICE });
    expect((await app.inject({ method: 'DELETE', url: `${owner.base}/${endpoint.id}`, headers: as(owner.userId) })).statusCode).toBe(204);
    const [counts] = await testDb.database.sql<{ deliveries: number; attempts: number }[]>`
      select (select count(*)::int from webhook_deliveries where id = ${seeded.id}) as deliveries,
             (select count(*)::int from webhook_delivery_attempts where delivery_id = ${seeded.id}) as attempts`;
    expect(counts).toEqual({ deliveries: 0, attempts: 0 });
  });
});
