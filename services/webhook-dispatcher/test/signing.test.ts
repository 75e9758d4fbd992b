import { rotateWebhookEndpointSecret, sendWebhookTestEvent, userPrincipal } from '@raffle/domain';
import { generateWebhookSecret } from '@raffle/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { manualClock, SECOND } from './support/conditions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { registerSecret } from './support/log-scan.js';
import { attemptsOf, outboxRow, waitForDeliveries } from './support/queries.js';
import { startSink, type Received } from './support/sink.js';

let testDb: TestDatabase;
let app: DispatcherApp;
const clock = manualClock();

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, { ...isolatedStreamNames(), DELIVERY_POLL_INTERVAL_MS: '3600000' }, { now: clock.now, random: () => 0.5 });
  await app.dispatcher.consumerStarted;
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const headersOf = (request: Received) => request.headers as Record<string, string>;
const signaturesOf = (request: Received) => headersOf(request)['webhook-signature']!.split(' ');

describe('signing and identity', () => {
  it('POSTs exactly the outbox envelope, with the event id as webhook-id, verifiable with standardwebhooks', async () => {
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink();
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    const eventId = await owners.workspaceEvent('raffle.published', { id: 'raf_sig', title: 'Ünïcode ✓', nested: { n: 1 } });
    await sink.waitFor(1);
    await waitForDeliveries(testDb.database.sql, endpoint.id, 1);

    const [request] = sink.received;
    const { payload } = await outboxRow(testDb.database.sql, eventId);
    expect(request!.body).toBe(payload);
    expect(JSON.parse(request!.body)).toEqual({ type: 'raffle.published', timestamp: expect.any(String), data: { id: 'raf_sig', title: 'Ünïcode ✓', nested: { n: 1 } } });
    expect(request!.headers['webhook-id']).toBe(eventId);
    expect(request!.headers['webhook-timestamp']).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(request!.headers['content-type']).toBe('application/json');
    expect(signaturesOf(request!)).toEqual([expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/)]);
    expect(new Webhook(endpoint.secret).verify(request!.body, headersOf(request!))).toEqual(JSON.parse(payload));
    await sink.close();
  });

  it('signs a retry afresh: same webhook-id, new timestamp, different signature', async () => {
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink(() => (sink.received.length === 1 ? { status: 500, body: 'try later' } : { status: 200 }));
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    const eventId = await owners.workspaceEvent();
    await sink.waitFor(1);
    const [delivery] = await waitForDeliveries(testDb.database.sql, endpoint.id, 1, (d) => d.attemptCount === 1);
    expect(delivery).toMatchObject({ status: 'pending', nextAttemptAt: new Date(clock.now().getTime() + 5 * SECOND) });

    clock.advance(6 * SECOND);
    expect(await app.dispatcher.pollDue()).toBe(1);
    await sink.waitFor(2);
    await waitForDeliveries(testDb.database.sql, endpoint.id, 1, (d) => d.status === 'succeeded');

    const [first, second] = sink.received;
    expect(second!.headers['webhook-id']).toBe(eventId);
    expect(first!.headers['webhook-id']).toBe(eventId);
    expect(Number(second!.headers['webhook-timestamp'])).toBe(Number(first!.headers['webhook-timestamp']) + 6);
    expect(second!.headers['webhook-signature']).not.toBe(first!.headers['webhook-signature']);
    expect(second!.body).toBe(first!.body);
    const hook = new Webhook(endpoint.secret);
    expect(() => hook.verify(first!.body, headersOf(first!))).not.toThrow();
    expect(() => hook.verify(second!.body, headersOf(second!))).not.toThrow();
    // The first signature does not carry over to the new timestamp: it was not reused.
    expect(() => hook.verify(second!.body, { ...headersOf(second!), 'webhook-signature': first!.headers['webhook-signature'] as string })).toThrow();

    const attempts = await attemptsOf(testDb.database.sql, { deliveryId: delivery!.id });
    expect(attempts.map((a) => [a.attemptNumber, a.responseStatus, a.failureKind, a.responseBody])).toEqual([
      [1, 500, 'http_status', 'try later'],
      [2, 200, null, ''],
    ]);
    await sink.close();
  });
});

describe('secret rotation', () => {
  it('signs with both secrets while the previous one is inside its window, then with the new one only', async () => {
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink();
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook` });
    const oldSecret = endpoint.secret;
    const newSecret = registerSecret(generateWebhookSecret());
    const expiresAt = new Date(clock.now().getTime() + 60 * SECOND);
    await testDb.database.sql`
      update webhook_endpoints set secret = ${newSecret}, previous_secret = ${oldSecret}, previous_secret_expires_at = ${expiresAt.toISOString()}::timestamptz
      where id = ${endpoint.id}`;

    await owners.workspaceEvent();
    await sink.waitFor(1);
    await waitForDeliveries(testDb.database.sql, endpoint.id, 1);
    const during = sink.received[0]!;
    const signatures = signaturesOf(during);
    expect(signatures).toHaveLength(2);
    for (const signature of signatures) expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // Each secret verifies on its own, whichever of the two signatures is its own.
    expect(() => new Webhook(newSecret).verify(during.body, headersOf(during))).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(during.body, headersOf(during))).not.toThrow();
    expect(() => new Webhook(newSecret).verify(during.body, { ...headersOf(during), 'webhook-signature': signatures[0]! })).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(during.body, { ...headersOf(during), 'webhook-signature': signatures[1]! })).not.toThrow();

    clock.advance(61 * SECOND);
    await owners.workspaceEvent();
    await sink.waitFor(2);
    await waitForDeliveries(testDb.database.sql, endpoint.id, 2);
    const after = sink.received[1]!;
    expect(signaturesOf(after)).toHaveLength(1);
    expect(() => new Webhook(newSecret).verify(after.body, headersOf(after))).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(after.body, headersOf(after))).toThrow();
    await sink.close();
  });

  it('signs with the new secret too once the endpoint cache has expired after a rotation through the API', async () => {
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink();
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook`, owner: 'personal', eventTypes: ['entry.created'] });
    // A delivery before the rotation puts the endpoint, with its old secret, in the dispatcher's cache.
    await owners.personalEvent();
    await sink.waitFor(1);
    await waitForDeliveries(testDb.database.sql, endpoint.id, 1);
    expect(signaturesOf(sink.received[0]!)).toHaveLength(1);

    const rotated = await rotateWebhookEndpointSecret(testDb.database.db, {
      owner: { kind: 'personal', userId: owners.user.id },
      actor: userPrincipal(owners.user.id),
      endpointId: endpoint.id,
      now: clock.now(),
    });
    registerSecret(rotated.secret);
    clock.advance(1.5 * SECOND); // past the directory's 1 s cache

    await owners.personalEvent();
    await sink.waitFor(2);
    const after = sink.received[1]!;
    expect(signaturesOf(after)).toHaveLength(2);
    expect(() => new Webhook(rotated.secret).verify(after.body, headersOf(after))).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(after.body, headersOf(after))).not.toThrow();
    await sink.close();
  });

  it('signs a test event sent right after a rotation with the new secret, however fresh the cached secrets', async () => {
    const owners = await createOwners(testDb.database.db);
    const sink = await startSink();
    const endpoint = await owners.endpoint({ url: `${sink.url}/hook`, owner: 'personal', eventTypes: ['entry.created'] });
    const scope = { owner: { kind: 'personal' as const, userId: owners.user.id }, actor: userPrincipal(owners.user.id), endpointId: endpoint.id };
    // A delivery puts the endpoint, with its old secret, in the dispatcher's cache; the clock
    // stands still, so that cache never expires on its own.
    await owners.personalEvent();
    await sink.waitFor(1);
    await waitForDeliveries(testDb.database.sql, endpoint.id, 1);

    const rotated = await rotateWebhookEndpointSecret(testDb.database.db, { ...scope, now: clock.now() });
    registerSecret(rotated.secret);
    await sendWebhookTestEvent(testDb.database.db, { ...scope, now: clock.now() });

    await sink.waitFor(2);
    const test = sink.received[1]!;
    expect(JSON.parse(test.body).type).toBe('webhook.test');
    expect(() => new Webhook(rotated.secret).verify(test.body, headersOf(test))).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(test.body, headersOf(test))).not.toThrow();
    await sink.close();
  });
});
