import { schema } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { buildTestApp } from './support/app.js';
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
    const production = { ...base, NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), CURSOR_SECRET: 'c'.repeat(32) };
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
    // Room to draft and publish before startsAt on a loaded machine; published late, it would open at once.
    const startsAt = new Date(Date.now() + 2000);
    const draft = await api.draft({
      startsAt: startsAt.toISOString(),
      endsAt: new Date(startsAt.getTime() + 600).toISOString(),
      settings: { autoDraw: true, autoFinalize: true },
    });
    const published = await api.ok(draft.id, 'publish');
    expect(published.status).toBe('scheduled');

    await expect.poll(() => statusOf(app, draft.id), { timeout: 10_000, interval: 20 }).toBe('open');
    expect(Date.now()).toBeGreaterThanOrEqual(startsAt.getTime());
    await api.entrants(draft.slug, 2);
    await expect.poll(() => statusOf(app, draft.id), { timeout: 10_000, interval: 20 }).toBe('finalized');
    const wins = await api.wins(draft.id);
    expect(wins.map((w) => w.status)).toEqual(['finalized', 'finalized']);

    apps.splice(apps.indexOf(app), 1);
    await app.close();
    expect(app.raffleScheduler).toBeNull();
  });

  it('several instances move each due raffle exactly once', async () => {
    const [first, second, third] = [await appWithScheduler(), await appWithScheduler(), await appWithScheduler()];
    const api = dashboardRaffles(first, testDb.database, tenant.workspace.id, tenant.owner.id);
    // Ten drafts and publishes must all land before startsAt, even on a loaded machine.
    const startsAt = new Date(Date.now() + 5000).toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const published = await api.ok((await api.draft({ startsAt })).id, 'publish');
      expect(published.status).toBe('scheduled');
      ids.push(published.id);
    }
    for (const id of ids) await expect.poll(() => statusOf(second!, id), { timeout: 10_000, interval: 20 }).toBe('open');
    // Give the other instances a few more passes to do something twice, if they could.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await statusOf(third!, ids[0]!)).toBe('open');
    const events = await testDb.database.db.select().from(schema.eventOutbox);
    for (const id of ids) {
      const opened = events.filter((e) => e.type === 'raffle.opened' && (JSON.parse(e.payload) as { data: { id: string } }).data.id === id);
      expect(opened).toHaveLength(1);
    }
  });
});
