import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { RelayedEvent } from '@raffle/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { ensureStream } from '../src/consumer/stream-setup.js';
import { relayOutboxBatch } from '../src/relay/outbox-relay.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { waitUntil } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners, writeEvents } from './support/fixtures.js';
import { capturedLogLines } from './support/log-scan.js';
import { outboxRow, waitForDeliveries } from './support/queries.js';
import { startSink } from './support/sink.js';

const unpublishedCount = async (sql: TestDatabase['database']['sql']) =>
  (await sql<{ n: number }[]>`select count(*)::int as n from event_outbox where published_at is null`)[0]!.n;

describe('relay with NATS up', () => {
  let testDb: TestDatabase;
  let app: DispatcherApp;
  let failNextRelayMark = false;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    app = await buildTestApp(testDb.database, testDb.url, isolatedStreamNames(), {
      afterRelayPublish: async () => {
        if (!failNextRelayMark) return;
        failNextRelayMark = false;
        throw new Error('injected: crashed between publishing and marking');
      },
    });
    await app.dispatcher.consumerStarted;
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  it('publishes rows that commit out of seq order: the later seq first, then the earlier one', async () => {
    const { db, sql } = testDb.database;
    const owners = await createOwners(db);
    const sink = await startSink();
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });

    let commitEarlier!: () => void;
    const earlierMayCommit = new Promise<void>((resolve) => (commitEarlier = resolve));
    let earlierWritten!: (ids: string[]) => void;
    const earlierIds = new Promise<string[]>((resolve) => (earlierWritten = resolve));
    const earlierTx = db.transaction(async (tx) => {
      earlierWritten(await writeEvents(tx, [{ type: 'raffle.published', audience: { workspaceId: owners.workspace.id } }]));
      await earlierMayCommit;
    });
    const [earlier] = await earlierIds;
    const [later] = await db.transaction((tx) => writeEvents(tx, [{ type: 'raffle.published', audience: { workspaceId: owners.workspace.id } }]));

    await waitUntil('the later row to be published while the earlier is uncommitted', async () => (await outboxRow(sql, later!)).published);
    await sink.waitFor(1);
    expect(sink.received[0]!.headers['webhook-id']).toBe(later);

    commitEarlier();
    await earlierTx;
    await waitUntil('the earlier row to be published too', async () => (await outboxRow(sql, earlier!)).published);
    expect((await outboxRow(sql, earlier!)).seq).toBeLessThan((await outboxRow(sql, later!)).seq);
    await waitForDeliveries(sql, endpoint.id, 2);
    expect(sink.received.map((r) => r.headers['webhook-id']).sort()).toEqual([earlier, later].sort());
    await sink.close();
  });

  it('a round that fails after publishing leaves its rows unpublished; the next round relays them, delivered once', async () => {
    const { db, sql } = testDb.database;
    const owners = await createOwners(db);
    const sink = await startSink();
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    failNextRelayMark = true;
    const eventId = await owners.workspaceEvent();
    await waitUntil('the failed round', () => !failNextRelayMark);
    await waitUntil('the row to be published by a later round', async () => (await outboxRow(sql, eventId)).published);
    await waitForDeliveries(sql, endpoint.id, 1);
    // Published twice, stored once (Nats-Msg-Id), delivered once.
    const marker = await owners.workspaceEvent();
    await waitForDeliveries(sql, endpoint.id, 2);
    expect(sink.received.map((r) => r.headers['webhook-id'])).toEqual([eventId, marker]);
    await sink.close();
  });
});

describe('relayOutboxBatch', () => {
  let testDb: TestDatabase;
  let nc: NatsConnection;
  const names = isolatedStreamNames();
  const streamNames = { stream: names.NATS_STREAM, subjectPrefix: names.NATS_SUBJECT_PREFIX, consumer: names.NATS_CONSUMER };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    nc = await connect({ servers: 'nats://127.0.0.1:4222' });
    await ensureStream(await jetstreamManager(nc), streamNames);
  });
  afterAll(async () => {
    await (await jetstreamManager(nc)).streams.delete(names.NATS_STREAM).catch(() => undefined);
    await nc?.close();
    await testDb?.drop();
  });

  it('keeps a batch unpublished when the round fails after publishing, and publishes it again next round', async () => {
    const { db, sql } = testDb.database;
    const owners = await createOwners(db);
    const ids = await owners.workspaceEvents(3);
    const js = jetstream(nc);
    const published: string[] = [];
    const publish = async (subject: string, event: RelayedEvent) => {
      published.push(event.id);
      await js.publish(subject, JSON.stringify(event), { msgID: event.id, timeout: 5000 });
    };
    const options = { batchSize: 10, subjectPrefix: names.NATS_SUBJECT_PREFIX };

    await expect(
      relayOutboxBatch(sql, publish, {
        ...options,
        afterPublish: async () => {
          throw new Error('crashed before the mark');
        },
      }),
    ).rejects.toThrow('crashed before the mark');
    expect(published.sort()).toEqual([...ids].sort());
    expect(await unpublishedCount(sql)).toBe(3);

    expect(await relayOutboxBatch(sql, publish, options)).toBe(3);
    expect(published.filter((id) => ids.includes(id))).toHaveLength(6);
    expect(await unpublishedCount(sql)).toBe(0);
    // The repeat was absorbed by the duplicate window: one message per event.
    const info = await (await jetstreamManager(nc)).streams.info(names.NATS_STREAM);
    expect(info.state.messages).toBe(3);

    expect(await relayOutboxBatch(sql, publish, options)).toBe(0);
  });

  it('a publish that fails leaves the whole batch unpublished', async () => {
    const { db, sql } = testDb.database;
    const owners = await createOwners(db);
    await owners.workspaceEvents(2);
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new Error('no responders');
    };
    await expect(relayOutboxBatch(sql, failing, { batchSize: 10, subjectPrefix: names.NATS_SUBJECT_PREFIX })).rejects.toThrow('no responders');
    expect(calls).toBe(2);
    expect(await unpublishedCount(sql)).toBe(2);
  });
});

describe('relay with NATS unreachable', () => {
  let testDb: TestDatabase;
  let app: DispatcherApp;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    app = await buildTestApp(testDb.database, testDb.url, { ...isolatedStreamNames(), NATS_URL: 'nats://127.0.0.1:1', RELAY_POLL_INTERVAL_MS: '50' });
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  const relayWarnings = () =>
    capturedLogLines
      .filter((line) => line.includes('outbox relay: cannot publish'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string })
      .filter((line) => line.reason === 'NATS is not connected');

  it('starts and serves; events wait in the outbox, counted on /metrics, with one warning however many rounds fail', async () => {
    const live = await app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', nats: 'unavailable' } });

    const owners = await createOwners(testDb.database.db);
    const ids = [await owners.workspaceEvent(), await owners.workspaceEvent(), await owners.workspaceEvent()];
    await expect(app.dispatcher.relay!.drainNow()).rejects.toThrow('NATS is not connected');

    // The backlog gauges read the outbox at each scrape.
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^outbox_unpublished_events\{[^}]*\} 3$/m);
    expect(Number(/^outbox_oldest_unpublished_age_seconds\{[^}]*\} (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    for (const id of ids) expect((await outboxRow(testDb.database.sql, id)).published).toBe(false);
    expect(await unpublishedCount(testDb.database.sql)).toBe(3);

    const warnings = relayWarnings();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
    const unreachable = capturedLogLines.filter((line) => line.includes('NATS is unreachable'));
    expect(unreachable).toHaveLength(1);
  });
});
