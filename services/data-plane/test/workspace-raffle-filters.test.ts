import { RAFFLE_MECHANICS, RAFFLE_STATUSES } from '@raffle/contracts';
import { insertRaffle } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

type Item = { id: string; title: string; slug: string; status: string; mechanic: string };
type Page = { data: Item[]; pagination: { nextCursor: string | null; hasMore: boolean } };

let db: TestDatabase;
let app: FastifyInstance;
let tenant: Tenant;

/** Titles chosen to catch a search that is case-sensitive, or that lets `%` and `_` match anything. */
const TITLES = ['Summer Drop', 'SUMMER finale', '50% off', '50 percent', 'snake_case', 'snakeXcase', 'Winter mint'];

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database);
  await db.database.db.transaction(async (tx) => {
    for (const [i, title] of TITLES.entries()) {
      await insertRaffle(tx, {
        workspaceId: tenant.workspace.id,
        slug: `filter-${i}-${tenant.tag}`,
        title,
        mechanic: RAFFLE_MECHANICS[i % RAFFLE_MECHANICS.length]!,
        allocationType: 'airdrop',
        visibility: i % 2 === 0 ? 'public' : 'private',
        status: RAFFLE_STATUSES[i % RAFFLE_STATUSES.length]!,
        spots: 1,
        publishedAt: RAFFLE_STATUSES[i % RAFFLE_STATUSES.length] === 'draft' ? null : new Date(),
      });
    }
  });
  app = await buildTestApp(db.database, db.url);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const listUrl = (query: Record<string, string>) => `/api/v1/workspaces/${tenant.workspace.id}/raffles?${new URLSearchParams(query)}`;
const get = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tenant.keys.workspace}` } });

/** Every page of the list under `query`, two items a page, so a filter must hold across cursors. */
async function allPages(query: Record<string, string>): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const res = await get(listUrl({ ...query, limit: '2', ...(cursor ? { cursor } : {}) }));
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page;
    items.push(...page.data);
    cursor = page.pagination.nextCursor;
  } while (cursor);
  return items;
}

const contains = (text: string, needle: string) => text.toLowerCase().includes(needle.toLowerCase());

describe('the workspace raffle list, filtered on the server', () => {
  it('pages through exactly the matches of each filter, newest first', async () => {
    const everything = await allPages({});
    expect(everything.length).toBeGreaterThanOrEqual(TITLES.length);
    const cases: Array<[Record<string, string>, (r: Item) => boolean]> = [
      ...RAFFLE_STATUSES.map((status): [Record<string, string>, (r: Item) => boolean] => [{ status }, (r) => r.status === status]),
      ...RAFFLE_MECHANICS.map((mechanic): [Record<string, string>, (r: Item) => boolean] => [{ mechanic }, (r) => r.mechanic === mechanic]),
      [{ q: 'summer' }, (r) => contains(r.title, 'summer') || contains(r.slug, 'summer')],
      [{ q: '50%' }, (r) => r.title === '50% off'],
      [{ q: 'snake_case' }, (r) => r.title === 'snake_case'],
      [{ q: `filter-3-${tenant.tag}` }, (r) => r.slug === `filter-3-${tenant.tag}`],
      [{ q: 'summer', status: 'draft' }, (r) => contains(r.title, 'summer') && r.status === 'draft'],
    ];
    for (const [query, keep] of cases) {
      const expected = everything.filter(keep).map((r) => r.id);
      expect((await allPages(query)).map((r) => r.id), JSON.stringify(query)).toEqual(expected);
    }
    // The search found something, so the cases above test more than empty lists.
    expect((await allPages({ q: 'SUMMER' })).map((r) => r.title).sort()).toEqual(['SUMMER finale', 'Summer Drop']);
  });

  it('binds the cursor to the filters: a cursor of one list does not continue another', async () => {
    const unfiltered = (await get(listUrl({ limit: '1' }))).json() as Page;
    const onFiltered = await get(listUrl({ limit: '1', status: 'open', cursor: unfiltered.pagination.nextCursor! }));
    expect(onFiltered.statusCode).toBe(400);
    expect(onFiltered.json().code).toBe('INVALID_CURSOR');
    const searched = (await get(listUrl({ limit: '1', q: 'summer' }))).json() as Page;
    const otherSearch = await get(listUrl({ limit: '1', q: 'winter', cursor: searched.pagination.nextCursor! }));
    expect(otherSearch.json().code).toBe('INVALID_CURSOR');
    const sameSearch = await get(listUrl({ limit: '1', q: 'summer', cursor: searched.pagination.nextCursor! }));
    expect(sameSearch.statusCode).toBe(200);
  });

  it('refuses a status or mechanic it does not know, and an empty or overlong search, with 400', async () => {
    for (const query of [{ status: 'paused' }, { mechanic: 'lottery' }, { q: '' }, { q: 'x'.repeat(101) }] as Record<string, string>[]) {
      const res = await get(listUrl(query));
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().code, JSON.stringify(query)).toBe('VALIDATION_FAILED');
    }
  });
});
