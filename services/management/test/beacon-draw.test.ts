import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startLocalBeacon, timeOfRound, type LocalBeacon } from '@raffle/beacon';
import { findDrawProofSource, listDrawWinnerPositions, renderDrawProof, schema, updateRaffle } from '@raffle/db';
import { DRAND_DRAW_ALGORITHM, type DrawProof } from '@raffle/sdk';
import { beaconDrawProblems } from '@raffle/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectSchema } from './support/contract.js';
import { dashboardRaffles, type Raffle } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

// A beacon of this file's own (1 s rounds), so one test can stop it for a while; schedulers move
// every due raffle of their database, so the file has its own database too.
let testDb: TestDatabase;
let tenant: Tenant;
let beacon: LocalBeacon;
let keyDir: string;
let port: number;
const apps: ManagementApp[] = [];

const startBeacon = () => startLocalBeacon({ port, host: '127.0.0.1', period: 1, keyFile: join(keyDir, 'beacon.json') });

beforeAll(async () => {
  testDb = await createTestDatabase();
  tenant = await seedTenant(testDb.database);
  keyDir = await mkdtemp(join(tmpdir(), 'raffle-beacon-draw-'));
  port = 0;
  beacon = await startBeacon();
  port = Number(new URL(beacon.url).port);
});

afterAll(async () => {
  for (const app of apps) await app.close();
  // Stopped already when a test failed while it was down.
  await beacon?.close().catch(() => undefined);
  await testDb?.drop();
  await rm(keyDir, { recursive: true, force: true });
});

async function app(overrides: Record<string, string> = {}) {
  const built = await buildTestApp(testDb.database, testDb.url, { BEACON_CHAIN: JSON.stringify(beacon.chain), BEACON_RELAYS: beacon.url, ...overrides });
  apps.push(built);
  return built;
}

/** The proof as the data plane serves it (the same renderer), parsed. */
async function proofOf(raffleId: string): Promise<DrawProof> {
  const { sql } = testDb.database;
  const source = (await findDrawProofSource(sql, raffleId))!;
  const winners = await listDrawWinnerPositions(sql, raffleId);
  const { algorithm, seed, drawCommitment, entriesDigest, entryLines } = source;
  return JSON.parse(
    renderDrawProof({ algorithm: algorithm!, closedAt: source.closedAt, beacon: source.beacon, drawCommitment: drawCommitment!, seed: seed!, entriesDigest: entriesDigest!, spots: source.spots, entryLines: entryLines! }, winners),
  ) as DrawProof;
}

/** The proof as served: the schema, the pinned chain's round, and the draw recomputed from it. */
function expectBeaconProof(proof: DrawProof, raffle: { beaconRound: number }) {
  expectSchema('DrawProof', proof);
  expect(proof.algorithm).toBe(DRAND_DRAW_ALGORITHM);
  // Signed by the chain this deployment pins, and the round its close fixed.
  expect(proof.beacon).toMatchObject({ ...pick(beacon.chain), round: raffle.beaconRound });
  expect(beaconDrawProblems(proof)).toEqual([]);
}

const pick = ({ chainHash, publicKey, period, genesisTime }: typeof beacon.chain) => ({ chainHash, publicKey, period, genesisTime });

describe('a manual draw', () => {
  it('answers 409 DRAW_BEACON_PENDING with Retry-After before its round is published, then draws with it', async () => {
    const management = await app();
    const api = dashboardRaffles(management, testDb.database, tenant.workspace.id, tenant.owner.id);
    const raffle = await api.open({ spots: 2 });
    await api.entrants(raffle.slug, 4);
    const closed = (await api.ok(raffle.id, 'close')) as Raffle & { beaconRound: number };
    expect(closed.beaconRound).toBeGreaterThan(0);

    const early = await api.attempt(raffle.id, 'draw');
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().message).toMatch(/^DRAW_BEACON_PENDING: /);
    const retryAfter = Number(early.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    expect((await api.wins(raffle.id))).toHaveLength(0);

    // The round is due retryAfter seconds on; drawing then succeeds (polling briefly for publication).
    await sleep(retryAfter * 1000);
    await expect.poll(async () => (await api.attempt(raffle.id, 'draw')).statusCode, { timeout: 5000, interval: 200 }).toBe(200);
    expectBeaconProof(await proofOf(raffle.id), closed);
  });
});

describe('auto-draws with the beacon down for a while', () => {
  it('leave the raffle closed and counted, then draw it exactly once when the beacon is back, with two schedulers', async () => {
    const scheduling = { SCHEDULER_ENABLED: 'true', SCHEDULER_INTERVAL_MS: '50' };
    const first = await app(scheduling);
    const second = await app(scheduling);
    const api = dashboardRaffles(first, testDb.database, tenant.workspace.id, tenant.owner.id);
    const raffle = await api.open({ spots: 2, endsAt: new Date(Date.now() + 3_600_000).toISOString(), settings: { autoDraw: true } });
    await api.entrants(raffle.slug, 5);

    await beacon.close();
    await testDb.database.db.transaction((tx) => updateRaffle(tx, raffle.id, { endsAt: new Date() }));
    const statusOf = async () =>
      (await testDb.database.sql<{ status: string; beaconRound: number | null }[]>`select status, beacon_round::int as "beaconRound" from raffles where id = ${raffle.id}`)[0]!;
    await expect.poll(async () => (await statusOf()).status, { timeout: 10_000, interval: 50 }).toBe('closed');
    const closed = await statusOf();
    // Past the round's time, with no relay answering: still closed, and the failures counted.
    const due = timeOfRound(beacon.chain, closed.beaconRound!) * 1000;
    await sleep(Math.max(0, due - Date.now()) + 3000);
    expect((await statusOf()).status).toBe('closed');
    const metrics = await first.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/raffle_beacon_fetch_failures_total\{reason="unavailable"[^}]*\} [1-9]/);

    beacon = await startBeacon();
    await expect.poll(async () => (await statusOf()).status, { timeout: 40_000, interval: 100 }).toBe('drawn');
    // One more pass each: nothing is drawn twice.
    for (const instance of [first, second]) expect((await instance.raffleScheduler!.tick()).drawn).toBe(0);
    const events = (await testDb.database.db.select().from(schema.eventOutbox)).filter(
      (e) => e.type === 'raffle.drawn' && (JSON.parse(e.payload) as { data: { id: string } }).data.id === raffle.id,
    );
    expect(events).toHaveLength(1);
    expect(await api.wins(raffle.id)).toHaveLength(2);
    expectBeaconProof(await proofOf(raffle.id), { beaconRound: closed.beaconRound! });
    // Its own waits (the close, the round's time plus 3 s, the schedulers' back-off after failed
    // fetches, then the draw) take about 20 s on a quiet machine: the default 30 s failed it on a loaded one.
  }, 90_000);
});
