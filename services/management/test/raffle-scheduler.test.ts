import { Writable } from 'node:stream';
import { createDatabase, schema, STATEMENT_BOUNDS, updateRaffle } from '@raffle/db';
import postgres from 'postgres';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type ManagementApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { buildTestApp, testConfig } from './support/app.js';
import { as, dashboardRaffles, type Raffle } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

// Schedulers move every due raffle of their database: this file has its own.
let testDb: TestDatabase;
let tenant: Tenant;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  tenant = await seedTenant(testDb.database);
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await testDb?.drop();
});

async function appWithScheduler(overrides: Record<string, string> = { SCHEDULER_ENABLED: 'true', SCHEDULER_INTERVAL_MS: '50' }) {
  const app = await buildTestApp(testDb.database, testDb.url, overrides);
  apps.push(app);
  return app;
}

const HOUR = 3_600_000;

/**
 * Sets `field` of the raffles to `inMs` from now, in one transaction, straight in the database:
 * the API keeps a scheduled raffle's startsAt (and an open one's endsAt) in the future, which a
 * deadline a moment away could miss on a loaded machine between the request and its commit.
 */
async function moveDeadline(raffleIds: string[], field: 'startsAt' | 'endsAt', inMs: number): Promise<Date> {
  const at = new Date(Date.now() + inMs);
  await testDb.database.db.transaction(async (tx) => {
    for (const id of raffleIds) expect(await updateRaffle(tx, id, field === 'startsAt' ? { startsAt: at } : { endsAt: at })).not.toBeNull();
  });
  return at;
}

const statusOf = async (app: FastifyInstance, raffleId: string) =>
  (
    (await app.inject({ method: 'GET', url: `/api/dashboard/workspaces/${tenant.workspace.id}/raffles/${raffleId}`, headers: as(tenant.owner.id) })).json() as Raffle
  ).status;

describe('configuration', () => {
  it('runs by default, every second; under NODE_ENV=test only when asked', () => {
    const base = { DATABASE_URL: 'postgres://x' };
    expect(loadConfig(base)).toMatchObject({ SCHEDULER_ENABLED: true, SCHEDULER_INTERVAL_MS: 1000 });
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).SCHEDULER_ENABLED).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'test', SCHEDULER_ENABLED: 'true' }).SCHEDULER_ENABLED).toBe(true);
    expect(loadConfig({ ...base, SCHEDULER_ENABLED: 'false', SCHEDULER_INTERVAL_MS: '250' })).toMatchObject({ SCHEDULER_ENABLED: false, SCHEDULER_INTERVAL_MS: 250 });
    expect(() => loadConfig({ ...base, SCHEDULER_INTERVAL_MS: '0' })).toThrow(/SCHEDULER_INTERVAL_MS/);
    expect(() => loadConfig({ ...base, SCHEDULER_ENABLED: 'maybe' })).toThrow(/SCHEDULER_ENABLED/);
  });

  it('IP_HASH_SECRET: a development default, at least 16 characters, required in production', () => {
    const base = { DATABASE_URL: 'postgres://x' };
    expect(loadConfig(base).IP_HASH_SECRET.length).toBeGreaterThanOrEqual(16);
    expect(() => loadConfig({ ...base, IP_HASH_SECRET: 'short' })).toThrow(/IP_HASH_SECRET/);
    const production = { ...base, NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), CURSOR_SECRET: 'c'.repeat(32), SIWE_ALLOWED_ORIGINS: 'https://console.example.com' };
    expect(() => loadConfig(production)).toThrow(/IP_HASH_SECRET/);
    expect(loadConfig({ ...production, IP_HASH_SECRET: 's'.repeat(32) }).IP_HASH_SECRET).toBe('s'.repeat(32));
  });
});

describe('the raffle scheduler plugin', () => {
  it('is off in tests unless enabled', async () => {
    const app = await appWithScheduler({});
    expect(app.raffleScheduler).toBeNull();
  });

  it('opens, closes, draws and finalizes raffles on time, and stops with the app', async () => {
    const app = await appWithScheduler();
    expect(app.raffleScheduler).not.toBeNull();
    const api = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.owner.id);
    // Published far ahead (so it is scheduled however long the requests take), then brought due.
    const draft = await api.draft({
      startsAt: new Date(Date.now() + HOUR).toISOString(),
      endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
      settings: { autoDraw: true, autoFinalize: true },
    });
    const published = await api.ok(draft.id, 'publish');
    expect(published.status).toBe('scheduled');

    const startsAt = await moveDeadline([draft.id], 'startsAt', 300);
    await expect.poll(() => statusOf(app, draft.id), { timeout: 10_000, interval: 20 }).toBe('open');
    expect(Date.now()).toBeGreaterThanOrEqual(startsAt.getTime());
    // Open until endsAt, however long entering takes: it is an hour away until both are in.
    await api.entrants(draft.slug, 2);
    const endsAt = await moveDeadline([draft.id], 'endsAt', 300);
    await expect.poll(() => statusOf(app, draft.id), { timeout: 10_000, interval: 20 }).toBe('finalized');
    expect(Date.now()).toBeGreaterThanOrEqual(endsAt.getTime());
    const wins = await api.wins(draft.id);
    expect(wins.map((w) => w.status)).toEqual(['finalized', 'finalized']);

    apps.splice(apps.indexOf(app), 1);
    await app.close();
    expect(app.raffleScheduler).toBeNull();
  });

  describe('with several instances', () => {
    // Built before the test, under the hook timeout: three app builds take a while on a loaded machine.
    const instances: ManagementApp[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 3; i++) instances.push(await appWithScheduler());
    });

    it('moves each due raffle exactly once', async () => {
      const [first, second, third] = instances;
      const api = dashboardRaffles(first!, testDb.database, tenant.workspace.id, tenant.owner.id);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const published = await api.ok((await api.draft({ startsAt: new Date(Date.now() + HOUR).toISOString() })).id, 'publish');
        expect(published.status).toBe('scheduled');
        ids.push(published.id);
      }
      // All ten fall due in one commit, with the three schedulers polling every 50 ms: they race for each.
      await moveDeadline(ids, 'startsAt', 0);
      for (const id of ids) await expect.poll(() => statusOf(second!, id), { timeout: 10_000, interval: 20 }).toBe('open');
      // One more whole pass on each instance, after every raffle is open: none finds anything to open again.
      for (const app of [first, second, third]) expect((await app!.raffleScheduler!.tick()).opened).toBe(0);
      expect(await statusOf(third!, ids[0]!)).toBe('open');
      const events = await testDb.database.db.select().from(schema.eventOutbox);
      for (const id of ids) {
        const opened = events.filter((e) => e.type === 'raffle.opened' && (JSON.parse(e.payload) as { data: { id: string } }).data.id === id);
        expect(opened).toHaveLength(1);
      }
    });
  });
});

describe('the raffle scheduler under a lasting failure', () => {
  it('logs one error line when its passes start failing and one line when they recover, counting every failure in between', async () => {
    const lines: Array<{ level: number; msg: string; component?: string }> = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    // The services' request bounds, so a pass waiting on the lock below gives up (lock_timeout) and fails.
    const database = createDatabase({ url: testDb.directUrl, max: 2, statementBounds: STATEMENT_BOUNDS.request });
    const app = await buildApp(testConfig(testDb.url, { SCHEDULER_ENABLED: 'true', SCHEDULER_INTERVAL_MS: '50' }), { database, logStream });
    const holder = postgres(testDb.directUrl, { max: 1, onnotice: () => {} });
    const metric = async (name: string) => {
      const text = (await app.inject({ url: '/metrics' })).body;
      return Number(new RegExp(`^${name}(\\{[^}]*\\})? (\\d+)$`, 'm').exec(text)?.[2] ?? 0);
    };
    let release = () => {};
    let lockHeld: Promise<unknown> = Promise.resolve();
    try {
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const lock = holder.begin(async (tx) => {
        await tx`lock table raffles in access exclusive mode`;
        locked();
        await released;
      });
      await isLocked;
      lockHeld = lock;
      // Several passes fail while the table is locked (counted, or else logged one by one).
      const errorLines = () => lines.filter((line) => line.level >= 50).length;
      await expect.poll(async () => Math.max(await metric('scheduler_failed_transitions_total'), errorLines()), { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(3);
      release();
      await lock;
      const passes = await metric('scheduler_passes_total');
      await expect.poll(() => metric('scheduler_passes_total'), { timeout: 30_000, interval: 50 }).toBeGreaterThan(passes);

      const scheduler = lines.filter((line) => line.component === 'raffle-scheduler');
      expect(scheduler.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([expect.stringContaining('raffle scheduler transition failed')]);
      expect(scheduler.filter((line) => line.msg === 'raffle scheduler transition recovered')).toHaveLength(1);
    } finally {
      release();
      await lockHeld;
      await app.close();
      await holder.end({ timeout: 5 });
      await database.close();
    }
  });
});
