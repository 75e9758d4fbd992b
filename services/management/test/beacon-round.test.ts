import { QUICKNET, roundAt, type BeaconChain } from '@raffle/beacon';
import { updateRaffle } from '@raffle/db';
import { localBeaconChain, localBeaconEnv } from '@raffle/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { buildTestApp } from './support/app.js';
import { as, dashboardRaffles, type Raffle } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * Every close management makes fixes the beacon round the draw will mix in (decision 0022): by
 * hand, by schedule, and by the web entry that fills a first-come raffle; a cancellation fixes
 * none. The apps pin the run's local beacon (BEACON_CHAIN), as a deployment pins quicknet.
 */

// The scheduler moves every due raffle of its database: this file has its own.
let testDb: TestDatabase;
let tenant: Tenant;
let chain: BeaconChain;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  tenant = await seedTenant(testDb.database);
  chain = localBeaconChain();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await testDb?.drop();
});

async function app(overrides: Record<string, string> = {}) {
  const built = await buildTestApp(testDb.database, testDb.url, overrides);
  apps.push(built);
  const api = dashboardRaffles(built, testDb.database, tenant.workspace.id, tenant.owner.id);
  const read = async (raffleId: string) => (await built.inject({ url: api.raffleUrl(raffleId), headers: as(tenant.owner.id) })).json() as Raffle;
  return { ...api, read };
}

const expectedRound = (closedAt: string) => roundAt(chain, Math.floor(Date.parse(closedAt) / 1000)) + 2;
const chainHashOf = async (id: string) => (await testDb.database.sql<{ hash: string | null }[]>`select beacon_chain_hash as hash from raffles where id = ${id}`)[0]!.hash;
async function closedEventOf(id: string) {
  const rows = await testDb.database.sql<{ payload: string }[]>`select payload from event_outbox where type = 'raffle.closed'`;
  return rows.map((r) => JSON.parse(r.payload) as { data: { id: string; beaconRound: number | null } }).find((e) => e.data.id === id);
}

describe('configuration: BEACON_CHAIN and BEACON_RELAYS', () => {
  const base = { DATABASE_URL: 'postgres://x' };

  it('default to quicknet and drand\'s relays, and take a named chain or a chain as JSON', () => {
    expect(loadConfig(base)).toMatchObject({ BEACON_CHAIN: 'quicknet' });
    expect(loadConfig(base).BEACON_RELAYS.split(',')[0]).toBe('https://api.drand.sh');
    expect(loadConfig({ ...base, ...localBeaconEnv() }).BEACON_CHAIN).toBe(JSON.stringify(chain));
    expect(loadConfig({ ...base, BEACON_CHAIN: JSON.stringify(QUICKNET) }).BEACON_CHAIN).toBe(JSON.stringify(QUICKNET));
  });

  it('refuse a chain that is not one, and a relay that is not an http(s) URL, by name', () => {
    expect(() => loadConfig({ ...base, BEACON_CHAIN: 'mainnet' })).toThrow(/BEACON_CHAIN/);
    expect(() => loadConfig({ ...base, BEACON_CHAIN: JSON.stringify({ ...chain, publicKey: 'ab' }) })).toThrow(/BEACON_CHAIN: publicKey/);
    expect(() => loadConfig({ ...base, BEACON_CHAIN: JSON.stringify({ ...chain, period: 0 }) })).toThrow(/BEACON_CHAIN: period/);
    expect(() => loadConfig({ ...base, BEACON_RELAYS: 'ftp://relay.example' })).toThrow(/BEACON_RELAYS/);
    expect(() => loadConfig({ ...base, BEACON_RELAYS: ' , ' })).toThrow(/BEACON_RELAYS/);
  });
});

describe('beaconRound', () => {
  it('by hand: the close answers the round at closedAt plus 2 on the pinned chain, and raffle.closed carries it', async () => {
    const api = await app();
    const open = await api.open();
    expect(open.beaconRound).toBeNull();
    const closed = await api.ok(open.id, 'close');
    expect(closed.beaconRound).toBe(expectedRound(closed.closedAt as string));
    expect(await chainHashOf(open.id)).toBe(chain.chainHash);
    expect((await closedEventOf(open.id))!.data.beaconRound).toBe(closed.beaconRound);
  });

  it('a cancellation leaves it null', async () => {
    const api = await app();
    const cancelled = await api.ok((await api.open()).id, 'cancel');
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.beaconRound).toBeNull();
    expect(await chainHashOf(cancelled.id)).toBeNull();
  });

  it('by the web entry that fills a first-come raffle', async () => {
    const api = await app();
    const open = await api.open({ mechanic: 'fcfs', spots: 1 });
    await api.entrants(open.slug, 1);
    const res = await api.act(open.id, 'close');
    expect(res.statusCode, 'already closed by the entry').toBe(409);
    const closed = await api.read(open.id);
    expect(closed.status).toBe('closed');
    expect(closed.beaconRound).toBe(expectedRound(closed.closedAt as string));
    expect((await closedEventOf(open.id))!.data.beaconRound).toBe(closed.beaconRound);
  });

  it('by schedule: the scheduler closes at endsAt on the pinned chain', async () => {
    const api = await app({ SCHEDULER_ENABLED: 'true', SCHEDULER_INTERVAL_MS: '50' });
    const open = await api.open({ endsAt: new Date(Date.now() + 3_600_000).toISOString() });
    await testDb.database.db.transaction((tx) => updateRaffle(tx, open.id, { endsAt: new Date(Date.now() + 200) }));
    await expect.poll(async () => (await closedEventOf(open.id))?.data.beaconRound, { timeout: 10_000, interval: 20 }).toBeTypeOf('number');
    const closed = await api.read(open.id);
    expect(closed.beaconRound).toBe(expectedRound(closed.closedAt as string));
    expect((await closedEventOf(open.id))!.data.beaconRound).toBe(closed.beaconRound);
    expect(await chainHashOf(open.id)).toBe(chain.chainHash);
  });
});
