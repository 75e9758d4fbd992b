import { jetstream } from '@nats-io/jetstream';
import type { RelayedEvent } from '@raffle/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { waitUntil } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { deliveriesOf, outboxRow, waitForDeliveries } from './support/queries.js';
import { startSink } from './support/sink.js';

let testDb: TestDatabase;
let app: DispatcherApp;
let sink: Awaited<ReturnType<typeof startSink>>;
const names = isolatedStreamNames();

beforeAll(async () => {
  testDb = await createTestDatabase();
  sink = await startSink();
  app = await buildTestApp(testDb.database, testDb.url, names);
  await app.dispatcher.consumerStarted;
});
afterAll(async () => {
  await app?.close();
  await sink?.close();
  await testDb?.drop();
});

/** The sink paths that received `eventId`, sorted. */
const pathsFor = (eventId: string) =>
  sink.received
    .filter((r) => r.headers['webhook-id'] === eventId)
    .map((r) => r.path)
    .sort();

/** The endpoints the dispatcher created deliveries for; fan-out writes them all in one statement. */
const deliveredEndpoints = async (eventId: string) =>
  waitUntil(`deliveries of ${eventId}`, async () => {
    const rows = await deliveriesOf(testDb.database.sql, { eventId });
    return rows.length > 0 ? rows.map((r) => r.endpointId).sort() : undefined;
  });

describe('fan-out', () => {
  it('reaches every enabled endpoint of the workspace subscribed to the type, and no other', async () => {
    const owners = await createOwners(testDb.database.db);
    const others = await createOwners(testDb.database.db);
    const subscribed = await owners.endpoint({ url: `${sink.url}/ws-subscribed`, eventTypes: ['raffle.published'] });
    const alsoSubscribed = await owners.endpoint({ url: `${sink.url}/ws-also`, eventTypes: ['raffle.opened', 'raffle.published'] });
    await owners.endpoint({ url: `${sink.url}/ws-disabled`, eventTypes: ['raffle.published'], enabled: false });
    await owners.endpoint({ url: `${sink.url}/ws-unsubscribed`, eventTypes: ['raffle.opened'] });
    await owners.endpoint({ url: `${sink.url}/personal-same-type`, owner: 'personal', eventTypes: ['raffle.published'] });
    await others.endpoint({ url: `${sink.url}/other-workspace`, eventTypes: ['raffle.published'] });

    const eventId = await owners.workspaceEvent('raffle.published');
    expect(await deliveredEndpoints(eventId)).toEqual([subscribed.id, alsoSubscribed.id].sort());
    await waitUntil('both POSTs', () => pathsFor(eventId).length === 2);
    expect(pathsFor(eventId)).toEqual(['/ws-also', '/ws-subscribed']);
  });

  it('keeps personal and workspace audiences apart for the same event type', async () => {
    const owners = await createOwners(testDb.database.db);
    const others = await createOwners(testDb.database.db);
    const personal = await owners.endpoint({ url: `${sink.url}/personal`, owner: 'personal', eventTypes: ['entry.created'] });
    const workspace = await owners.endpoint({ url: `${sink.url}/workspace`, owner: 'workspace', eventTypes: ['entry.created'] });
    await others.endpoint({ url: `${sink.url}/other-personal`, owner: 'personal', eventTypes: ['entry.created'] });
    await others.endpoint({ url: `${sink.url}/other-workspace`, owner: 'workspace', eventTypes: ['entry.created'] });

    const personalEvent = await owners.personalEvent('entry.created');
    const workspaceEvent = await owners.workspaceEvent('entry.created');
    expect(await deliveredEndpoints(personalEvent)).toEqual([personal.id]);
    expect(await deliveredEndpoints(workspaceEvent)).toEqual([workspace.id]);
    await waitUntil('both POSTs', () => pathsFor(personalEvent).length + pathsFor(workspaceEvent).length === 2);
    expect(pathsFor(personalEvent)).toEqual(['/personal']);
    expect(pathsFor(workspaceEvent)).toEqual(['/workspace']);
  });

  it('delivers webhook.test to the one endpoint it names, subscribed or not', async () => {
    const owners = await createOwners(testDb.database.db);
    const target = await owners.endpoint({ url: `${sink.url}/test-target`, eventTypes: ['raffle.opened'] });
    await owners.endpoint({ url: `${sink.url}/test-bystander`, eventTypes: ['webhook.test', 'raffle.opened'] });

    const eventId = await owners.testEvent(target.id);
    expect(await deliveredEndpoints(eventId)).toEqual([target.id]);
    await waitUntil('the test POST', () => pathsFor(eventId).length === 1);
    expect(pathsFor(eventId)).toEqual(['/test-target']);
    const body = JSON.parse(sink.received.find((r) => r.headers['webhook-id'] === eventId)!.body) as { type: string; data: unknown };
    expect(body).toMatchObject({ type: 'webhook.test', data: { message: 'test' } });
  });

  it('an event relayed again, or its message delivered twice, creates no second delivery and no second POST', async () => {
    const sql = testDb.database.sql;
    const owners = await createOwners(testDb.database.db);
    const endpoint = await owners.endpoint({ url: `${sink.url}/once` });
    const eventId = await owners.workspaceEvent();
    await waitForDeliveries(sql, endpoint.id, 1);

    // The relay publishes the row again (its mark was lost, say).
    await sql`update event_outbox set published_at = null where id = ${eventId}`;
    await waitUntil('the row to be relayed again', async () => (await outboxRow(sql, eventId)).published);

    // The same message reaches the consumer a second time (published without a Nats-Msg-Id, JetStream keeps it).
    const row = await sql<RelayedEvent[]>`
      select id, type, user_id as "userId", workspace_id as "workspaceId", endpoint_id as "endpointId", payload from event_outbox where id = ${eventId}`;
    await jetstream(app.nats.connection()!).publish(`${names.NATS_SUBJECT_PREFIX}.${row[0]!.type}`, JSON.stringify(row[0]));

    // The consumer handles messages in stream order: once a later event is delivered, both repeats were seen.
    const marker = await owners.workspaceEvent();
    await waitForDeliveries(sql, endpoint.id, 2);
    await waitUntil('the marker POST', () => pathsFor(marker).length === 1);
    expect(await deliveriesOf(sql, { eventId })).toHaveLength(1);
    expect(pathsFor(eventId)).toEqual(['/once']);
  });
});
