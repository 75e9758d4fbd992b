import { fileURLToPath } from 'node:url';
import { localBeaconEnv } from '@raffle/service-kit/testing';
import {
  clock,
  formatFaultTable,
  runFaultScenario,
  startPrivateNatsCluster,
  startPrivatePgBouncer,
  startPrivatePostgresPair,
  tallyFaultScenario,
  unexpectedStatusViolations,
  useFaultDependencies,
  type FaultScenarioRun,
  type FaultTally,
  type PrivateNatsNode,
  type PrivatePgBouncer,
  type RequestOutcome,
  type ServiceProcess,
} from '@raffle/service-kit/testing/faults';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDevToken } from '../../services/management/src/cli/dev-token.js';
import { call, sleep, until } from './http-probes.js';
import { countsSince, readCounts, replicaAvailable } from './read-metrics.js';
import { cachedKey, revocationDelayMs, type CachedKey } from './revocation-probe.js';
import { currentStreamLeader, streamFullyReplicated, streamLeaderOtherThan } from './stream-replication.js';
import { acknowledgedEntryIds, entryPairs, ownReadViolations, stalenessOf, stalenessViolations, startTopologyLoad, type TopologyLoad } from './topology-load.js';
import { seedTopologyTenant, type TopologyTenant } from './topology-tenant.js';
import { startWebhookReceiver } from './webhook-receiver.js';

/**
 * The replica test on the cluster topology (issue 27): two of each service on a three-node NATS
 * cluster (the stream with three replicas), a Postgres primary with a streaming replica, and
 * PgBouncer in transaction mode in front of the primary for every service (LISTEN and the
 * migrations on the direct URL); the data planes read from the replica. Under a steady load of
 * entrants entering through both data planes (each reading their entry at once on the other, with
 * the Raffle-Read-After token) and of list reads on both, three faults in turn: kill -9 of the
 * NATS stream leader, the replica's replay paused past the staleness bound, and kill -9 of the
 * replica. Each: every request answered, no 5xx but 503, every acknowledged entry stored and its
 * event delivered, own reads always see the entry, lists never staler than the bound, and a key
 * revoked during the fault refused by both data planes within a second.
 */
const STREAM = 'RAFFLE_EVENTS';
const STREAM_REPLICAS = 3;
const entry = (service: string) => fileURLToPath(new URL(`../../services/${service}/src/server.ts`, import.meta.url));
const JWT_SECRET = 'cluster-topology-test-jwt-secret-not-for-production-use';
const LOCAL_WEBHOOKS = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
/** The data planes' DATABASE_READ_MAX_STALENESS_MS: the production default. */
const MAX_STALENESS_MS = 2000;
/** Long enough past the bound that every data plane must have turned to the primary for lists. */
const REPLAY_PAUSE_MS = MAX_STALENESS_MS + 3000;
const REPLICA_DOWN_MS = 3000;
/** After the kill: time for every data plane to have noticed (a failed read, or its sampler every 100 ms); from then on no read may go to the replica. */
const REPLICA_DOWN_SETTLE_MS = 1000;
/** A service compiling on a shared, loaded two-core machine can take more than the default minute. */
const START_TIMEOUT_MS = 240_000;
const DELIVERY_TIMEOUT_MS = 30_000;

const deps = useFaultDependencies({ ownPostgres: () => startPrivatePostgresPair(), ownNats: () => startPrivateNatsCluster(3) });
const managements: ServiceProcess[] = [];
const dataPlanes: ServiceProcess[] = [];
const dispatchers: ServiceProcess[] = [];
let pgbouncer: PrivatePgBouncer;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let tenant: TopologyTenant;
let pairs: ReturnType<typeof entryPairs>;
let ownerToken: string;
let holderToken: string;
const tallies: FaultTally[] = [];
const notes: string[] = [];

const pair = () => deps().postgres!;
const dataPlaneOrigins = () => dataPlanes.map((dp) => dp.origin);

/** Every service's pool goes through PgBouncer; what a transaction pooler cannot carry goes straight to the primary. */
const databaseEnv = () => ({ DATABASE_URL: pgbouncer.url('raffle'), DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: deps().databaseUrl, DATABASE_POOL_SIZE: '3' });
const startService = (name: string, env: Record<string, string>) =>
  deps().startService({ name, startTimeoutMs: START_TIMEOUT_MS, entry: entry(name), env: { NODE_ENV: 'test', ...databaseEnv(), NATS_URL: deps().nats.url, ...env } });
const startManagement = () => startService('management', { REDIS_URL: deps().redis.url, JWT_SECRET, RATE_LIMIT_USER_MAX: '100000', ...localBeaconEnv(), ...LOCAL_WEBHOOKS });
// A verified key is trusted for ten minutes here: only the revocation message over NATS can make a
// data plane refuse it within the second, so the revocation checks measure that path.
const startDataPlane = () =>
  startService('data-plane', {
    REDIS_URL: deps().redis.url,
    DATABASE_READ_URL: pair().replica.url('raffle'),
    DATABASE_READ_MAX_STALENESS_MS: String(MAX_STALENESS_MS),
    API_KEY_CACHE_TTL_MS: '600000',
    TRUST_PROXY: 'true',
    RATE_LIMIT_PERSONAL_MAX: '1000000',
    RATE_LIMIT_WORKSPACE_MAX: '1000000',
    ...localBeaconEnv(),
  });
const startDispatcher = () => startService('webhook-dispatcher', { NATS_STREAM_REPLICAS: String(STREAM_REPLICAS), DELIVERY_POLL_INTERVAL_MS: '250', ...LOCAL_WEBHOOKS });

beforeAll(async () => {
  tenant = await deps().withDatabase((database) => seedTopologyTenant(database, { entrants: 30, raffles: 40 }));
  pairs = entryPairs(tenant);
  ownerToken = signDevToken(JWT_SECRET, { sub: tenant.ownerId, ttlSeconds: 3600 });
  holderToken = signDevToken(JWT_SECRET, { sub: tenant.holderId, ttlSeconds: 3600 });
  receiver = await startWebhookReceiver();
  pgbouncer = await startPrivatePgBouncer({ targetHost: '127.0.0.1', targetPort: pair().primary.port, poolMode: 'transaction' });
  // In two waves: six at once starve each other of the two cores.
  managements.push(...(await Promise.all([startManagement(), startManagement()])));
  const others = await Promise.all([startDataPlane(), startDataPlane(), startDispatcher(), startDispatcher()]);
  dataPlanes.push(others[0], others[1]);
  dispatchers.push(others[2], others[3]);

  const endpoint = await call(managements[0]!.origin, 'POST', `/api/developer/workspaces/${tenant.workspaceId}/webhook-endpoints`, ownerToken, { url: receiver.url, eventTypes: ['entry.created'] });
  if (endpoint.status !== 201) throw new Error(`subscribing the receiver answered ${endpoint.status}: ${JSON.stringify(endpoint.body)}`);
  await until('the dispatchers to create the stream', () => deps().nats.streamLeader(STREAM), 30_000);
  await streamFullyReplicated(deps().nats, STREAM, STREAM_REPLICAS);
  await until('both data planes to read from the replica', async () => (await Promise.all(dataPlaneOrigins().map(replicaAvailable))).every(Boolean), 30_000);
}, 540_000);

afterAll(async () => {
  console.log([formatFaultTable('cluster topology (3 NATS nodes, stream R3; Postgres primary + streaming replica; PgBouncer in transaction mode; 2 of each service)', tallies), ...notes].join('\n  '));
  // The services go before the pooler they stand on, so none logs its loss on the way out.
  const services = [...managements, ...dataPlanes, ...dispatchers];
  for (const service of services) service.kill('SIGKILL');
  await Promise.all(services.map((s) => s.exited));
  await pgbouncer?.destroy();
  await receiver?.close();
});

let load: TopologyLoad;
const startLoad = () => (load = startTopologyLoad({ dataPlanes: dataPlaneOrigins(), tenant, pairs, entrants: 2, listReaders: 1, pauseMs: 50 }));

/** One fault under the load: a healthy second first, the fault, its outage, the return, then load until 1.5 s of 2xx in a row. */
const underLoad = (fault: () => Promise<void>, outageMs: number, restore: () => Promise<void>) =>
  runFaultScenario({ load: startLoad, fault, restore, baselineMs: 1500, outageMs, settledMs: 1500, maxAfterMs: 20_000 });

/** Each write 201 and each read 200, or a 503 (which the done-when allows); anything else (no answer, another 5xx, a 4xx from a broken load) is reported. */
const statusViolations = (run: FaultScenarioRun) => unexpectedStatusViolations(run, (o) => o.status === 503 || o.status === (o.kind === 'write' ? 201 : 200));

/**
 * Entries acknowledged in the run that are lost: not stored, without their `entry.created` event
 * in the outbox, or whose event never reached the webhook receiver (waited for up to 30 s).
 */
async function lostWritesOf(outcomes: RequestOutcome[]) {
  const acknowledged = acknowledgedEntryIds(outcomes);
  const { stored, events } = await deps().withDatabase(async ({ sql }) => ({
    stored: (await sql<{ id: string }[]>`select id from entries where id = any(${acknowledged})`).length,
    events: await sql<{ id: string; entryId: string }[]>`
      select id, payload::jsonb->'data'->>'id' as "entryId" from event_outbox
      where workspace_id = ${tenant.workspaceId} and type = 'entry.created' and payload::jsonb->'data'->>'id' = any(${acknowledged})`,
  }));
  const eventIds = events.map((e) => e.id);
  await until('every acknowledged entry\'s event at the receiver', async () => receiver.tally(eventIds).lost === 0, DELIVERY_TIMEOUT_MS).catch(() => undefined);
  const delivery = receiver.tally(eventIds);
  const lost = acknowledged.length - stored + (acknowledged.length - events.length) + delivery.lost;
  return { acknowledged: acknowledged.length, stored, events: events.length, delivery, lost, eventOf: new Map(events.map((e) => [e.entryId, e.id])) };
}

const describeLoss = (loss: Awaited<ReturnType<typeof lostWritesOf>>) =>
  `${loss.acknowledged} entries acknowledged, ${loss.stored} stored, ${loss.events} events in the outbox, ${loss.delivery.arrived} delivered (${loss.delivery.duplicates} duplicates)`;

/**
 * Reads sent in [from, to) and the stalest answer among them. Which database answered is the
 * data planes' counters' to say: a read on the primary says how long ago it finished, which on a
 * busy event loop is not always 0.
 */
function readsBetween(outcomes: RequestOutcome[], from: number, to: number) {
  const staleness = outcomes.filter((o) => o.kind === 'read' && o.status === 200 && o.startedAt >= from && o.startedAt < to).map((o) => stalenessOf(o) ?? -1);
  return { count: staleness.length, maxStalenessMs: staleness.length ? Math.max(...staleness) : null, pastBound: staleness.filter((s) => s > MAX_STALENESS_MS).length };
}

/** The checks every scenario shares; returns its lost-write count for the table. */
async function commonChecks(run: FaultScenarioRun, scenario: string) {
  const loss = await lostWritesOf(run.outcomes);
  tallies.push(tallyFaultScenario(scenario, run.outcomes, run.marks, loss.lost));
  expect(statusViolations(run)).toEqual([]);
  expect(ownReadViolations(load.ownReads)).toEqual([]);
  expect(stalenessViolations(run.outcomes, MAX_STALENESS_MS)).toEqual([]);
  expect(loss.lost, describeLoss(loss)).toBe(0);
  expect(loss.acknowledged, 'entries acknowledged during the scenario').toBeGreaterThan(0);
  for (const service of [...managements, ...dataPlanes, ...dispatchers]) expect(service.exit(), `${service.name} exited`).toBeNull();
  return loss;
}

const totals = async () => Promise.all(dataPlaneOrigins().map(readCounts));
const sinceEach = (before: Record<string, number>[], after: Record<string, number>[]) => before.map((b, i) => countsSince(b, after[i]!));
const sum = (counts: Record<string, number>[], reason: string) => counts.reduce((n, c) => n + (c[reason] ?? 0), 0);

describe('two of each service on three NATS nodes, a Postgres primary and replica, and PgBouncer', () => {
  let keys: CachedKey[];
  beforeAll(async () => {
    keys = [];
    for (let i = 0; i < 3; i++) keys.push(await cachedKey(managements[i % 2]!.origin, dataPlaneOrigins(), holderToken));
  }, 60_000);

  it('leader-kill: kill -9 of the NATS stream leader and its return: nothing lost, revocation within a second, deliveries resume', async () => {
    const cluster = deps().nats;
    let killed: PrivateNatsNode | undefined;
    let killedAt = 0;
    let revokedMs = -1;
    let elected = '';
    const run = await underLoad(
      async () => {
        killed = await currentStreamLeader(cluster, STREAM);
        killedAt = clock();
        await killed.kill();
        revokedMs = await revocationDelayMs(keys[0]!, managements[0]!.origin, dataPlaneOrigins(), holderToken);
        const next = await streamLeaderOtherThan(cluster, STREAM, killed);
        elected = `${next.name} after ${Math.round(clock() - killedAt)} ms`;
      },
      1000,
      async () => {
        await killed!.start();
        await streamFullyReplicated(cluster, STREAM, STREAM_REPLICAS);
      },
    );
    const loss = await commonChecks(run, 'leader-kill');
    // The pause: from the kill to the first delivery of an entry acknowledged after it.
    const arrivals = receiver.firstArrivals();
    const firstNew = run.outcomes
      .filter((o) => o.kind === 'write' && o.status === 201 && o.finishedAt > killedAt)
      .map((o) => arrivals.get(loss.eventOf.get((o.body as { id: string }).id) ?? ''))
      .filter((t): t is number => t !== undefined);
    const pause = firstNew.length ? `${Math.round(Math.min(...firstNew) - killedAt)} ms` : 'never';
    notes.push(`leader-kill (${killed!.name}): new leader ${elected}; first delivery of an entry acknowledged after the kill ${pause} after it; a key revoked right after it refused by both data planes in ${revokedMs} ms; ${describeLoss(loss)}`);
    expect(firstNew.length).toBeGreaterThan(0);
  });

  it('replay-pause: the replica stops replaying past the bound: lists stay within it, entrants read their own entries, then it catches up', async () => {
    const replica = pair().replica;
    let atPause: Record<string, number>[] = [];
    let atResume: Record<string, number>[] = [];
    let pausedAt = 0;
    let resumedAt = 0;
    let revokedMs = -1;
    const run = await underLoad(
      async () => {
        await replica.pauseReplay();
        pausedAt = clock();
        atPause = await totals();
        revokedMs = await revocationDelayMs(keys[1]!, managements[1]!.origin, dataPlaneOrigins(), holderToken);
      },
      REPLAY_PAUSE_MS,
      async () => {
        atResume = await totals();
        resumedAt = clock();
        await replica.resumeReplay();
        await replica.caughtUp();
      },
    );
    // Where the data planes sent reads while replay stood still, by their own counters.
    const counted = sinceEach(atPause, atResume);
    const loss = await commonChecks(run, 'replay-pause');
    const paused = readsBetween(run.outcomes, pausedAt, resumedAt);
    const ownReads = load.ownReads.filter((r) => r.outcome.startedAt >= pausedAt && r.outcome.startedAt < resumedAt).length;
    notes.push(
      `replay-pause (${REPLAY_PAUSE_MS} ms, bound ${MAX_STALENESS_MS} ms): ${paused.count} reads answered while paused (max Raffle-Staleness-Ms ${paused.maxStalenessMs}; ${paused.pastBound} above the bound, each by no more than its time in flight); the data planes counted ${sum(counted, 'replica:replica')} on the replica, ` +
        `${sum(counted, 'primary:too_stale')} on the primary as too stale, ${sum(counted, 'primary:own_write')} on the primary as own writes; ${ownReads} own reads on the other data plane, all saw their entry; ` +
        `a key revoked meanwhile refused by both data planes in ${revokedMs} ms; ${describeLoss(loss)}`,
    );
    // Each data plane noticed the bound pass and read from the primary instead.
    for (const [i, c] of counted.entries()) expect(c['primary:too_stale'] ?? 0, `data plane ${i}: reads sent to the primary as too stale`).toBeGreaterThan(0);
    expect(ownReads).toBeGreaterThan(0);
  });

  it('replica-down: kill -9 of the replica: reads answered from the primary, never a 5xx, and back on the replica once it returns', async () => {
    const replica = pair().replica;
    let atKill: Record<string, number>[] = [];
    let atSettled: Record<string, number>[] = [];
    let atRestart: Record<string, number>[] = [];
    let settledAt = 0;
    let restartAt = 0;
    let revokedMs = -1;
    let backOnReplicaMs = -1;
    const run = await underLoad(
      async () => {
        atKill = await totals();
        await replica.stop('kill');
        revokedMs = await revocationDelayMs(keys[2]!, managements[0]!.origin, dataPlaneOrigins(), holderToken);
        await sleep(REPLICA_DOWN_SETTLE_MS);
        settledAt = clock();
        atSettled = await totals();
      },
      REPLICA_DOWN_MS,
      async () => {
        atRestart = await totals();
        restartAt = clock();
        await replica.start();
        const answeredAt = clock();
        await until('both data planes to read from the replica again', async () => (await Promise.all(dataPlaneOrigins().map(replicaAvailable))).every(Boolean), 20_000);
        backOnReplicaMs = Math.round(clock() - answeredAt);
      },
    );
    const loss = await commonChecks(run, 'replica-down');
    const fellBack = sinceEach(atKill, atSettled);
    const whileDown = sinceEach(atSettled, atRestart);
    const down = readsBetween(run.outcomes, settledAt, restartAt);
    notes.push(
      `replica-down (${REPLICA_DOWN_MS} ms): right after the kill ${sum(fellBack, 'primary:replica_failed')} reads failed on the replica and ran again on the primary; ` +
        `from ${REPLICA_DOWN_SETTLE_MS} ms after it to the restart ${down.count} reads answered (max Raffle-Staleness-Ms ${down.maxStalenessMs}), the data planes counted ${sum(whileDown, 'primary:replica_unavailable')} on the primary as the replica unavailable and ${sum(whileDown, 'replica:replica')} on the replica; ` +
        `both data planes on the replica again ${backOnReplicaMs} ms after it answered; a key revoked meanwhile refused by both in ${revokedMs} ms; ${describeLoss(loss)}`,
    );
    expect(down.count).toBeGreaterThan(0);
    // Once the loss is noticed, nothing goes to the dead replica; every data plane reads on.
    for (const [i, c] of whileDown.entries()) {
      expect(c['replica:replica'] ?? 0, `data plane ${i}: reads on the dead replica`).toBe(0);
      expect(c['primary:replica_unavailable'] ?? 0, `data plane ${i}: reads on the primary while the replica was down`).toBeGreaterThan(0);
    }
  });
});
