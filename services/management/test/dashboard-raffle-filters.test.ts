import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { as, dashboardRaffles, uniqueSlug, type DashboardRaffles, type Page, type Raffle } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let testDb: TestDatabase;
let app: ManagementApp;
let tenant: Tenant;
let api: DashboardRaffles;

type Item = Raffle & { title: string };

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
  tenant = await seedTenant(testDb.database);
  api = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.owner.id);
  // Drafts and published ones, two mechanics, titles a sloppy search would confuse.
  await api.draft({ title: 'Spring Fling', mechanic: 'raffle' });
  await api.draft({ title: 'spring_break', mechanic: 'fcfs' });
  await api.open({ title: 'SPRING open', mechanic: 'raffle' });
  await api.open({ title: 'Autumn 100%', mechanic: 'fcfs' });
  await api.draft({ title: 'Autumn 100 points', mechanic: 'raffle', slug: uniqueSlug('autumn') });
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const get = (query: Record<string, string>) => app.inject({ method: 'GET', url: `${api.base()}?${new URLSearchParams(query)}`, headers: as(tenant.owner.id) });

async function allPages(query: Record<string, string>): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const res = await get({ ...query, limit: '2', ...(cursor ? { cursor } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page<Item>;
    items.push(...page.data);
    cursor = page.pagination.nextCursor;
  } while (cursor);
  return items;
}

describe("the dashboard's raffle list, filtered on the server", () => {
  it('pages through exactly the matches of status, mechanic and a case-insensitive title/slug search', async () => {
    const everything = await allPages({});
    const cases: Array<[Record<string, string>, (r: Item) => boolean]> = [
      [{ status: 'draft' }, (r) => r.status === 'draft'],
      [{ status: 'open' }, (r) => r.status === 'open'],
      [{ mechanic: 'fcfs' }, (r) => r.mechanic === 'fcfs'],
      [{ q: 'spring' }, (r) => /spring/i.test(r.title) || /spring/i.test(r.slug)],
      [{ q: 'spring', status: 'draft', mechanic: 'raffle' }, (r) => r.title === 'Spring Fling'],
      [{ q: '100%' }, (r) => r.title === 'Autumn 100%'],
      [{ q: 'g_b' }, (r) => r.title === 'spring_break'],
    ];
    for (const [query, keep] of cases) {
      const expected = everything.filter(keep).map((r) => r.id);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect((await allPages(query)).map((r) => r.id), JSON.stringify(query)).toEqual(expected);
    }
  });

  it('binds the cursor to the filters, and refuses unknown values', async () => {
    const unfiltered = (await get({ limit: '1' })).json() as Page<Item>;
    expectManagementError(await get({ limit: '1', mechanic: 'fcfs', cursor: unfiltered.pagination.nextCursor! }), 400);
    for (const query of [{ status: 'paused' }, { mechanic: 'lottery' }, { q: '' }, { q: 'x'.repeat(101) }] as Record<string, string>[]) {
      expectManagementError(await get(query), 400);
    }
  });
});
