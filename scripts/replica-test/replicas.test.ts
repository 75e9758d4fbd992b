import { fileURLToPath } from 'node:url';
import { insertUser, insertWorkspace, addWorkspaceMember } from '@raffle/db';
import { localBeaconEnv } from '@raffle/service-kit/testing';
import { useFaultDependencies, type ServiceProcess } from '@raffle/service-kit/testing/faults';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDevToken } from '../../services/management/src/cli/dev-token.js';
import { call, until } from './http-probes.js';
import { startWebhookReceiver } from './webhook-receiver.js';

const entry = (service: string) => fileURLToPath(new URL(`../../services/${service}/src/server.ts`, import.meta.url));
const JWT_SECRET = 'replica-test-jwt-secret-not-for-production-use';
const LOCAL_WEBHOOKS = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
const SUBSCRIBED = ['raffle.published', 'raffle.opened', 'raffle.closed', 'raffle.drawn', 'raffle.finalized', 'winner.selected', 'winner.finalized'];
const TRANSITIONS = ['raffle.opened', 'raffle.closed', 'raffle.drawn', 'raffle.finalized'];
const ENTRANTS = 16;

const deps = useFaultDependencies();
const dataPlanes: ServiceProcess[] = [];
const managements: ServiceProcess[] = [];
const dispatchers: ServiceProcess[] = [];
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let workspaceId: string;
let ownerToken: string;
let entrants: { id: string; token: string; key?: string }[] = [];
const report: string[] = [];


const startManagement = () =>
  deps().startService({
    name: 'management',
    entry: entry('management'),
    env: {
      NODE_ENV: 'test',
      DATABASE_URL: deps().databaseUrl,
      DATABASE_POOL_SIZE: '3',
      NATS_URL: deps().nats.url,
      REDIS_URL: deps().redis.url,
      JWT_SECRET,
      SCHEDULER_ENABLED: 'true',
      SCHEDULER_INTERVAL_MS: '250',
      RATE_LIMIT_USER_MAX: '100000',
      // The run's local beacon: auto-draws wait for its round as they would for drand's.
      ...localBeaconEnv(),
      ...LOCAL_WEBHOOKS,
    },
  });
const startDataPlane = () =>
  deps().startService({
    name: 'data-plane',
    entry: entry('data-plane'),
    env: { NODE_ENV: 'test', DATABASE_URL: deps().databaseUrl, DATABASE_POOL_SIZE: '3', NATS_URL: deps().nats.url, REDIS_URL: deps().redis.url, ...localBeaconEnv() },
  });
const startDispatcher = () =>
  deps().startService({
    name: 'webhook-dispatcher',
    entry: entry('webhook-dispatcher'),
    env: {
      NODE_ENV: 'test',
      DATABASE_URL: deps().databaseUrl,
      DATABASE_POOL_SIZE: '3',
      NATS_URL: deps().nats.url,
      DELIVERY_POLL_INTERVAL_MS: '250',
      // A delivery the killed dispatcher had claimed is sent again by the other once its lease runs
      // out: 5 s here instead of production's 15 s, so the test sees it within its window.
      DELIVERY_LEASE_MS: '5000',
      ...LOCAL_WEBHOOKS,
    },
  });

beforeAll(async () => {
  const seeded = await deps().withDatabase(async (database) => {
    const owner = await insertUser(database.db, { handle: `owner-${Date.now().toString(36)}` });
    const workspace = await insertWorkspace(database.db, { slug: `replicas-${Date.now().toString(36)}`, name: 'Replicas' });
    await addWorkspaceMember(database.db, { workspaceId: workspace.id, userId: owner.id, role: 'owner' });
    const users = [];
    for (let i = 0; i < ENTRANTS * 2; i++) users.push(await insertUser(database.db, { handle: `entrant-${i}-${Date.now().toString(36)}`, createdAt: new Date('2020-01-01T00:00:00Z') }));
    return { owner, workspace, users };
  });
  workspaceId = seeded.workspace.id;
  ownerToken = signDevToken(JWT_SECRET, { sub: seeded.owner.id, ttlSeconds: 3600 });
  entrants = seeded.users.map((u) => ({ id: u.id, token: signDevToken(JWT_SECRET, { sub: u.id, ttlSeconds: 3600 }) }));
  receiver = await startWebhookReceiver();
  const started = await Promise.all([startManagement(), startManagement(), startDataPlane(), startDataPlane(), startDispatcher(), startDispatcher()]);
  managements.push(started[0], started[1]);
  dataPlanes.push(started[2], started[3]);
  dispatchers.push(started[4], started[5]);
}, 180_000);
afterAll(async () => {
  console.log(['replicas (2 of each service, one Postgres, NATS and Redis):', ...report].join('\n  '));
  await receiver?.close();
});

/** A raffle that opens, closes, draws and finalizes on its own, created and published through the two management replicas. */
async function scheduledRaffle(opensInMs: number, closesInMs: number) {
  const slug = `r-${Math.random().toString(36).slice(2, 10)}`;
  const created = await call(managements[1]!.origin, 'POST', `/api/dashboard/workspaces/${workspaceId}/raffles`, ownerToken, {
    slug,
    title: 'Replica raffle',
    mechanic: 'raffle',
    allocationType: 'allowlist_gtd',
    visibility: 'public',
    spots: 3,
    startsAt: new Date(Date.now() + opensInMs).toISOString(),
    endsAt: new Date(Date.now() + closesInMs).toISOString(),
    settings: { autoDraw: true, autoFinalize: true },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  const published = await call(managements[0]!.origin, 'POST', `/api/dashboard/workspaces/${workspaceId}/raffles/${id}/publish`, ownerToken);
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return { id, slug };
}

/** Enters through `origin`, retrying while the raffle has not opened yet. */
async function enter(origin: () => string, slug: string, key: string) {
  return until(
    'the raffle to open',
    async () => {
      const answer = await call(origin(), 'POST', `/api/v1/raffles/${slug}/entries`, key, {});
      return answer.status === 409 && String(answer.body.code) === 'RAFFLE_NOT_OPEN' ? null : answer;
    },
    15_000,
  );
}

async function eventCounts(raffleId: string) {
  return deps().withDatabase(async ({ sql }) => {
    const rows = await sql<{ type: string; n: number }[]>`
      select type, count(*)::int as n from event_outbox where workspace_id = ${workspaceId} and payload::jsonb->'data'->>'id' = ${raffleId} group by type`;
    return Object.fromEntries(rows.map((r) => [r.type, r.n]));
  });
}

async function workspaceEventIds() {
  return deps().withDatabase(async ({ sql }) =>
    (await sql<{ id: string }[]>`select id from event_outbox where workspace_id = ${workspaceId} and type = any(${SUBSCRIBED})`).map((r) => r.id),
  );
}

async function storedEntries(ids: string[]) {
  return deps().withDatabase(async ({ sql }) => (await sql<{ n: number }[]>`select count(*)::int as n from entries where id = any(${ids})`)[0]!.n);
}

/** Delivery attempts a dispatcher made, from its /metrics. */
const attemptsOf = (metrics: string) => [...metrics.matchAll(/^webhook_attempts_total\{[^}]*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);

const raffleStatus = async (id: string, origin: string) =>
  String((await call(origin, 'GET', `/api/dashboard/workspaces/${workspaceId}/raffles/${id}`, ownerToken)).body.status);

/**
 * Waits for the raffle to be finalized on its own and checks each scheduled transition happened
 * exactly once; then waits (up to `deliveryMs`) for every subscribed workspace event to reach the
 * receiver, and returns the tally.
 */
async function settled(raffleId: string, origin: string, deliveryMs: number) {
  await until('the raffle to be finalized', async () => (await raffleStatus(raffleId, origin)) === 'finalized', 30_000);
  const counts = await eventCounts(raffleId);
  for (const type of TRANSITIONS) expect(counts[type], type).toBe(1);
  const expected = await workspaceEventIds();
  await until('every subscribed event at the endpoint', async () => receiver.tally(expected).lost === 0, deliveryMs);
  return { tally: receiver.tally(expected), expected };
}

describe('two replicas of every service', () => {
  it('keys, revocation, scheduled transitions, entries and webhooks hold across replicas', async () => {
    const endpoint = await call(managements[0]!.origin, 'POST', `/api/developer/workspaces/${workspaceId}/webhook-endpoints`, ownerToken, {
      url: receiver.url,
      eventTypes: SUBSCRIBED,
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);

    // Keys made on alternate management replicas, each used on both data planes.
    for (const [i, entrant] of entrants.entries()) {
      const made = await call(managements[i % 2]!.origin, 'POST', '/api/developer/personal/api-keys', entrant.token, { name: 'replica', scopes: ['entries:write', 'profile:read'] });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      entrant.key = made.body.apiKey as string;
    }
    for (const dp of dataPlanes) expect((await call(dp.origin, 'GET', '/api/v1/me', entrants[0]!.key!)).status).toBe(200);

    // Revoked on one management replica, refused by both data planes within a second.
    const doomed = await call(managements[0]!.origin, 'POST', '/api/developer/personal/api-keys', entrants[1]!.token, { name: 'doomed', scopes: ['profile:read'] });
    for (const dp of dataPlanes) expect((await call(dp.origin, 'GET', '/api/v1/me', doomed.body.apiKey as string)).status).toBe(200);
    expect((await call(managements[1]!.origin, 'DELETE', `/api/developer/personal/api-keys/${doomed.body.id as string}`, entrants[1]!.token)).status).toBe(200);
    const revokedAt = Date.now();
    await Promise.all(
      dataPlanes.map((dp) => until('the revoked key to be refused', async () => (await call(dp.origin, 'GET', '/api/v1/me', doomed.body.apiKey as string)).status === 401, 1000)),
    );
    report.push(`revocation: refused by both data planes ${Date.now() - revokedAt} ms after the DELETE`);

    // A raffle the schedulers open, close, draw and finalize; entries through both data planes.
    const raffle = await scheduledRaffle(2000, 7000);
    const answers = await Promise.all(entrants.slice(0, ENTRANTS).map((e, i) => enter(() => dataPlanes[i % 2]!.origin, raffle.slug, e.key!)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const entryIds = answers.map((a) => a.body.id as string);
    expect(await storedEntries(entryIds)).toBe(ENTRANTS);
    const { tally, expected } = await settled(raffle.id, managements[0]!.origin, 20_000);
    expect(tally).toEqual({ arrived: expected.length, lost: 0, duplicates: 0 });
    const attempts = await Promise.all(dispatchers.map(async (d) => attemptsOf(await (await fetch(`${d.origin}/metrics`)).text())));
    report.push(
      `all up: ${ENTRANTS} entries (${ENTRANTS} stored), each transition once, ${tally.arrived} webhook events delivered (${attempts.join(' + ')} by the two dispatchers), ${tally.lost} lost, ${tally.duplicates} duplicates`,
    );
  });

  it('kill -9 of one replica of each service mid-run: every entry stored, each transition once, no webhook lost', async () => {
    const raffle = await scheduledRaffle(1500, 9000);
    const late = entrants.slice(ENTRANTS);
    let killed = false;
    const answers: { status: number; body: Record<string, unknown> }[] = [];
    for (const [i, entrant] of late.entries()) {
      if (i === late.length / 2) {
        for (const victim of [dataPlanes[0]!, managements[0]!, dispatchers[0]!]) victim.kill('SIGKILL');
        await Promise.all([dataPlanes[0]!.exited, managements[0]!.exited, dispatchers[0]!.exited]);
        killed = true;
      }
      // Before the kill the entrants alternate; after it, the surviving data plane takes them all.
      answers.push(await enter(() => dataPlanes[killed ? 1 : i % 2]!.origin, raffle.slug, entrant.key!));
    }
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(await storedEntries(answers.map((a) => a.body.id as string))).toBe(late.length);

    // Finalized by the surviving scheduler.
    const { tally } = await settled(raffle.id, managements[1]!.origin, 60_000);
    expect(tally.lost).toBe(0);
    report.push(
      `one of each killed with SIGKILL: ${late.length} entries (${late.length} stored), each transition once, ${tally.arrived} webhook events delivered in all, ${tally.lost} lost, ${tally.duplicates} duplicates`,
    );
  });
});
