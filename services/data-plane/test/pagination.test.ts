import type { FastifyInstance } from 'fastify';
import { insertEntry, insertRaffle, insertWin } from '@raffle/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let db: TestDatabase;
let app: FastifyInstance;
let tenant: Tenant;
let second: Tenant;

type Page = { data: { id: string }[]; pagination: { nextCursor: string | null; hasMore: boolean } };

/** Gives the owner entries and wins in many raffles so the personal lists span several pages. */
async function addOwnerHistory(t: Tenant, count: number) {
  await db.database.db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      const raffle = await insertRaffle(tx, {
        workspaceId: t.workspace.id,
        slug: `history-${i}-${t.tag}`,
        title: `History ${i}`,
        mechanic: 'raffle',
        allocationType: 'airdrop',
        visibility: 'public',
        status: 'finalized',
        spots: 1,
        publishedAt: new Date(Date.now() - 1000 * (i + 1)),
      });
      const entry = await insertEntry(tx, { raffle, userId: t.owner.id, status: 'valid', source: 'api' });
      if (i % 2 === 0) {
        await insertWin(
          tx,
          {
            raffleId: raffle.id, entryId: entry.id, userId: t.owner.id, position: 1, source: 'draw', status: 'finalized',
            walletSnapshot: null, identitySnapshot: { handle: 'owner', wallets: [] }, deliveryStatus: 'pending', deliveryNote: null,
            selectedAt: new Date(), finalizedAt: new Date(), disqualifiedAt: null, replacedAt: null, deliveredAt: null,
          },
          raffle,
        );
      }
    }
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database, { entries: 57, publicRaffles: 23, projects: 7 });
  second = await seedTenant(db.database, { entries: 3 });
  await addOwnerHistory(tenant, 13);
  app = await buildTestApp(db.database, db.url, { PUBLIC_RAFFLES_CACHE_TTL_MS: '0' });
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const get = async (url: string, key: string) => app.inject({ url, headers: { authorization: `Bearer ${key}` } });

async function walk(url: string, key: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const sep = url.includes('?') ? '&' : '?';
    const res = await get(`${url}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page;
    expect(page.data.length).toBeLessThanOrEqual(limit);
    expect(Object.keys(page.pagination).sort()).toEqual(['hasMore', 'nextCursor']);
    expect(page.pagination.nextCursor === null).toBe(!page.pagination.hasMore);
    if (page.pagination.hasMore) expect(page.data.length).toBe(limit);
    ids.push(...page.data.map((d) => d.id));
    if (!page.pagination.hasMore) return ids;
    cursor = page.pagination.nextCursor;
  }
  throw new Error('pagination did not end');
}

const lists = () => [
  { name: 'workspace raffle entries', url: `/api/v1/workspaces/${tenant.workspace.id}/raffles/${tenant.finalized.id}/entries`, key: tenant.keys.workspace, expected: 57, max: 250, def: 100 },
  { name: 'workspace raffles', url: `/api/v1/workspaces/${tenant.workspace.id}/raffles`, key: tenant.keys.workspace, expected: 16, max: 100, def: 50 },
  { name: 'workspace projects', url: `/api/v1/workspaces/${tenant.workspace.id}/projects`, key: tenant.keys.workspace, expected: 7, max: 100, def: 50 },
  { name: 'public raffles', url: '/api/v1/raffles', key: tenant.keys.personal, expected: 24 + 13 + 1, max: 100, def: 50 },
  { name: 'my entries', url: '/api/v1/entries', key: tenant.keys.personal, expected: 15, max: 100, def: 50 },
  { name: 'my wins', url: '/api/v1/wins', key: tenant.keys.personal, expected: 9, max: 100, def: 50 },
];

describe('keyset pagination', () => {
  it('walks every list at several page sizes, returning each row exactly once in a stable order', async () => {
    for (const list of lists()) {
      const reference = await walk(list.url, list.key, list.max);
      expect(reference.length, list.name).toBe(list.expected);
      expect(new Set(reference).size, list.name).toBe(reference.length);
      for (const limit of [1, 2, 3, 7, 50]) {
        expect(await walk(list.url, list.key, limit), `${list.name} at limit ${limit}`).toEqual(reference);
      }
    }
  });

  it('uses the spec\'s default page size when limit is absent', async () => {
    for (const list of lists()) {
      const res = await get(list.url, list.key);
      expect((res.json() as Page).data.length, list.name).toBe(Math.min(list.def, list.expected));
    }
  });

  it('accepts the maximum and refuses every invalid limit with 400 INVALID_LIMIT', async () => {
    for (const list of lists()) {
      expect((await get(`${list.url}?limit=${list.max}`, list.key)).statusCode).toBe(200);
      expect((await get(`${list.url}?limit=1`, list.key)).statusCode).toBe(200);
      const invalid = ['0', '-1', '-100', String(list.max + 1), '1000000', '1.5', '2.0001', 'abc', '', '1e400', 'NaN', 'Infinity', '10abc', '0x10', 'true'];
      for (const limit of invalid) {
        const res = await get(`${list.url}?limit=${encodeURIComponent(limit)}`, list.key);
        expect({ limit, status: res.statusCode, code: res.json().code }, list.name).toEqual({ limit, status: 400, code: 'INVALID_LIMIT' });
      }
      const repeated = await get(`${list.url}?limit=5&limit=6`, list.key);
      expect({ status: repeated.statusCode, code: repeated.json().code }).toEqual({ status: 400, code: 'INVALID_LIMIT' });
    }
  });

  it('refuses tampered, truncated, garbage, foreign-route and foreign-workspace cursors with 400 INVALID_CURSOR', async () => {
    const entries = lists()[0]!;
    const first = (await get(`${entries.url}?limit=2`, entries.key)).json() as Page;
    const cursor = first.pagination.nextCursor!;
    const [payload, signature] = cursor.split('.') as [string, string];
    const flipped = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const forged = Buffer.from(JSON.stringify('ent_00000000000000000000000000')).toString('base64url');
    const bad = [
      `${flipped(payload)}.${signature}`,
      `${payload}.${flipped(signature)}`,
      `${forged}.${signature}`,
      cursor.slice(0, -3),
      payload,
      `${payload}.`,
      `.${signature}`,
      'garbage',
      `${cursor}.extra`,
      '%%%',
    ];
    for (const c of bad) {
      const res = await get(`${entries.url}?limit=2&cursor=${encodeURIComponent(c)}`, entries.key);
      expect({ cursor: c, status: res.statusCode, code: res.json().code }).toEqual({ cursor: c, status: 400, code: 'INVALID_CURSOR' });
    }

    // A genuine cursor from another route, another raffle or another workspace is refused too.
    const rafflesPage = (await get(`/api/v1/workspaces/${tenant.workspace.id}/raffles?limit=1`, tenant.keys.workspace)).json() as Page;
    const foreignRoute = await get(`${entries.url}?cursor=${encodeURIComponent(rafflesPage.pagination.nextCursor!)}`, entries.key);
    expect(foreignRoute.json().code).toBe('INVALID_CURSOR');
    expect(foreignRoute.json().message).toBe('cursor is not a cursor this endpoint issued; start again without it');

    const otherWorkspacePage = (await get(`/api/v1/workspaces/${second.workspace.id}/raffles/${second.finalized.id}/entries?limit=1`, second.keys.workspace)).json() as Page;
    const foreignWorkspace = await get(`${entries.url}?cursor=${encodeURIComponent(otherWorkspacePage.pagination.nextCursor!)}`, entries.key);
    expect(foreignWorkspace.json().code).toBe('INVALID_CURSOR');

    const myEntries = (await get('/api/v1/entries?limit=1', tenant.keys.personal)).json() as Page;
    const otherUser = await get(`/api/v1/entries?cursor=${encodeURIComponent(myEntries.pagination.nextCursor!)}`, second.keys.personal);
    expect(otherUser.json().code).toBe('INVALID_CURSOR');
    const onWins = await get(`/api/v1/wins?cursor=${encodeURIComponent(myEntries.pagination.nextCursor!)}`, tenant.keys.personal);
    expect(onWins.json().code).toBe('INVALID_CURSOR');
  });

  it('keeps a walk consistent while rows are added behind it', async () => {
    const list = lists()[0]!;
    const firstPage = (await get(`${list.url}?limit=10`, list.key)).json() as Page;
    await db.database.db.transaction(async (tx) => {
      const latecomer = await seedLateEntrant(tx);
      return latecomer;
    });
    const rest = await walkFrom(list.url, list.key, 10, firstPage.pagination.nextCursor!);
    const all = [...firstPage.data.map((d) => d.id), ...rest];
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(58);
  });
});

async function seedLateEntrant(tx: Parameters<Parameters<typeof db.database.db.transaction>[0]>[0]) {
  return insertEntry(tx, { raffle: tenant.finalized, userId: second.owner.id, status: 'valid', source: 'api' });
}

async function walkFrom(url: string, key: string, limit: number, cursor: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | null = cursor;
  while (next) {
    const page = (await get(`${url}?limit=${limit}&cursor=${encodeURIComponent(next)}`, key)).json() as Page;
    ids.push(...page.data.map((d) => d.id));
    next = page.pagination.nextCursor;
  }
  return ids;
}
