import { WINNER_CSV_COLUMNS, WORKSPACE_ENTRY_CSV_COLUMNS } from '@raffle/contracts';
import { insertEntry, insertRaffle, insertUser, insertWin, type Database } from '@raffle/db';
import {
  BULK_FORMULA_WALLET,
  BULK_STATUS_REASON,
  csvCellReadBack,
  csvObjects,
  insertBulkEntries,
  parseStrictCsv,
  type ParsedCsv,
} from '@raffle/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DataPlaneApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * The CSV exports of a workspace's raffle (`…/exports/entries.csv`, `…/exports/winners.csv`):
 * the same rows and values as the JSON lists, RFC 4180 with a BOM, formulas neutralised, the
 * same key type and scopes as the lists, and a 100,000-entry raffle streamed in one response.
 */

const BIG = 100_000;
const FORMULAS = ['=HYPERLINK("http://evil.example","x")', '+1', '@SUM(A1:A2)', '-2+3', '\tTAB', '\r=1'];

let db: TestDatabase;
let app: DataPlaneApp;
let tenant: Tenant;
let hostile: { id: string; slug: string };
let big: { id: string; slug: string; entryIds: string[] };

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database);
  const at = Date.now() - 86_400_000;
  hostile = await db.database.db.transaction(async (tx) => {
    const raffle = await insertRaffle(tx, {
      workspaceId: tenant.workspace.id,
      slug: `exports-${tenant.tag}`,
      title: 'Zoë’s «Ünïcødé» raffle, "quoted"',
      mechanic: 'raffle',
      allocationType: 'allowlist_gtd',
      visibility: 'public',
      status: 'finalized',
      spots: FORMULAS.length,
      publishedAt: new Date(at),
      openedAt: new Date(at),
      finalizedAt: new Date(at + 2000),
      createdAt: new Date(at - 1000),
    });
    for (let i = 0; i < FORMULAS.length; i++) {
      const user = await insertUser(tx, { handle: `exp-${i}-${tenant.tag}`, createdAt: new Date(at) });
      const entry = await insertEntry(tx, {
        raffle,
        userId: user.id,
        status: i % 2 === 0 ? 'valid' : 'invalid',
        statusReason: i % 2 === 0 ? null : `Reason ${i}, with "quotes"\nand a second line`,
        source: 'api',
        walletSnapshot: FORMULAS[i]!,
        duplicateFlags: i === 1 ? { ipReuse: ['ent_a', 'ent_b'], walletReuse: ['ent_c'] } : {},
        createdAt: new Date(at + i * 10),
      });
      await insertWin(
        tx,
        {
          raffleId: raffle.id,
          entryId: entry.id,
          userId: user.id,
          // Inserted last to first: the file must follow position, not insertion.
          position: FORMULAS.length - i,
          source: 'draw',
          status: i === 2 ? 'selected' : 'finalized',
          walletSnapshot: FORMULAS[i]!,
          identitySnapshot: { handle: `zoë-${i}`, displayName: i === 0 ? '=cmd|"/c calc"!A1' : 'Ünïcødé', wallets: [{ chain: 'ethereum', address: `0x${i}` }] },
          deliveryStatus: 'pending',
          deliveryNote: i === 3 ? 'Ships Monday,\r\n"fragile"' : null,
          selectedAt: new Date(at + 1000),
          finalizedAt: i === 2 ? null : new Date(at + 2000),
          disqualifiedAt: null,
          replacedAt: null,
          deliveredAt: null,
        },
        raffle,
      );
    }
    return { id: raffle.id, slug: raffle.slug };
  });
  const bigRaffle = await insertRaffle(db.database.db, {
    workspaceId: tenant.workspace.id,
    slug: `big-export-${tenant.tag}`,
    title: 'A hundred thousand entries',
    mechanic: 'raffle',
    allocationType: 'airdrop',
    visibility: 'unlisted',
    status: 'closed',
    spots: 10,
    publishedAt: new Date(at),
    openedAt: new Date(at),
    closedAt: new Date(at + 1000),
  });
  big = { id: bigRaffle.id, slug: bigRaffle.slug, entryIds: await insertBulkEntries(db.database.sql, { raffleId: bigRaffle.id, count: BIG }) };
  app = await buildTestApp(db.database, db.url);
}, 180_000);

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const rafflePath = (raffleId: string, workspaceId = tenant.workspace.id) => `/api/v1/workspaces/${workspaceId}/raffles/${raffleId}`;
const exportUrl = (raffleId: string, file: 'entries.csv' | 'winners.csv', workspaceId?: string) => `${rafflePath(raffleId, workspaceId)}/exports/${file}`;

async function download(raffleId: string, file: 'entries.csv' | 'winners.csv') {
  const res = await app.inject({ url: exportUrl(raffleId, file), headers: bearer(tenant.keys.workspace) });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  // The raw bytes: a UTF-8 decoder that drops the BOM would hide whether it was sent.
  return { res, text: res.rawPayload.toString('utf8') };
}

/** Every entry the JSON list pages through, at its largest page. */
async function jsonEntries(raffleId: string): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await app.inject({ url: `${rafflePath(raffleId)}/entries?limit=250${query}`, headers: bearer(tenant.keys.workspace) });
    expect(res.statusCode).toBe(200);
    const page = res.json() as { data: Record<string, unknown>[]; pagination: { nextCursor: string | null } };
    all.push(...page.data);
    cursor = page.pagination.nextCursor;
  } while (cursor !== null);
  return all;
}

async function jsonWinners(raffleId: string): Promise<Record<string, unknown>[]> {
  const res = await app.inject({ url: `${rafflePath(raffleId)}/winners`, headers: bearer(tenant.keys.workspace) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The JSON records as the file must hold them, cell for cell. */
const expectedRows = (columns: readonly string[], records: Record<string, unknown>[]) => records.map((r) => columns.map((c) => csvCellReadBack(r[c])));

function expectSameAsJson(csv: ParsedCsv, columns: readonly string[], records: Record<string, unknown>[]) {
  expect(csv.bom, 'opens with the UTF-8 BOM').toBe(true);
  expect(csv.header).toEqual([...columns]);
  expect(csv.rows).toEqual(expectedRows(columns, records));
}

describe('entries.csv', () => {
  it('is a UTF-8 CSV attachment named after the raffle: the header, then every entry of the JSON list, field for field', async () => {
    const { res, text } = await download(hostile.id, 'entries.csv');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${hostile.slug}-entries.csv"`);
    expect(res.headers['raffle-staleness-ms']).toBe('0');
    expect(text.startsWith(`\uFEFF${WORKSPACE_ENTRY_CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    const entries = await jsonEntries(hostile.id);
    expect(entries).toHaveLength(FORMULAS.length);
    expectSameAsJson(parseStrictCsv(text), WORKSPACE_ENTRY_CSV_COLUMNS, entries);
  });

  it('quotes commas, quotes and line breaks, and prefixes every cell that opens like a formula', async () => {
    const { text } = await download(hostile.id, 'entries.csv');
    // RFC 4180 on the wire: the quotes doubled inside a quoted field, the line break kept in it.
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).toContain('"Reason 1, with ""quotes""\nand a second line"');
    expect(text).toContain('"{""ipReuse"":[""ent_a"",""ent_b""],""walletReuse"":[""ent_c""]}"');
    const rows = csvObjects(parseStrictCsv(text));
    expect(rows.map((r) => r.walletSnapshot)).toEqual(FORMULAS.map((f) => `'${f}`));
    expect(rows.every((r) => r.entryWeight === '1')).toBe(true);
    expect(JSON.parse(rows[1]!.duplicateFlags!)).toEqual({ ipReuse: ['ent_a', 'ent_b'], walletReuse: ['ent_c'] });
    expect(rows[0]!.statusReason).toBe('');
  });

  it('is only the header for a raffle without entries', async () => {
    const { text } = await download(tenant.draft.id, 'entries.csv');
    expect(text).toBe(`\uFEFF${WORKSPACE_ENTRY_CSV_COLUMNS.join(',')}\r\n`);
  });
});

describe('winners.csv', () => {
  it('holds the finalized winners of the JSON list by position, identitySnapshot as JSON, non-ASCII text intact', async () => {
    const { res, text } = await download(hostile.id, 'winners.csv');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${hostile.slug}-winners.csv"`);
    const winners = await jsonWinners(hostile.id);
    expect(winners).toHaveLength(FORMULAS.length - 1);
    const csv = parseStrictCsv(text);
    expectSameAsJson(csv, WINNER_CSV_COLUMNS, winners);
    const rows = csvObjects(csv);
    expect(rows.map((r) => Number(r.position))).toEqual([1, 2, 3, 5, 6]);
    expect(rows.every((r) => r.status === 'finalized')).toBe(true);
    const first = JSON.parse(rows.find((r) => r.walletSnapshot === `'${FORMULAS[0]}`)!.identitySnapshot!);
    expect(first).toEqual({ handle: 'zoë-0', displayName: '=cmd|"/c calc"!A1', wallets: [{ chain: 'ethereum', address: '0x0' }] });
    expect(rows.map((r) => r.deliveryNote)).toContain('Ships Monday,\r\n"fragile"');
  });

  it('is only the header for a raffle without finalized winners', async () => {
    const { text } = await download(tenant.privateRaffle.id, 'winners.csv');
    expect(text).toBe(`\uFEFF${WINNER_CSV_COLUMNS.join(',')}\r\n`);
  });
});

describe('who may export', () => {
  const files = [
    ['entries.csv', 'entries:read'],
    ['winners.csv', 'winners:read'],
  ] as const;

  function expectJsonError(res: { statusCode: number; headers: Record<string, unknown>; json: () => { code: string } }, status: number, code: string) {
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
    expect(res.headers['content-type']).toMatch(/^application\/json\b/);
    expect(res.headers['content-disposition']).toBeUndefined();
  }

  it.each(files)('%s: 401 without a key, 403 without its scope, 403 for another workspace, 404 for a raffle not of the workspace', async (file, scope) => {
    const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });
    expectJsonError(await get(exportUrl(hostile.id, file)), 401, 'API_KEY_MISSING');
    expectJsonError(await get(exportUrl(hostile.id, file), bearer(tenant.keys.workspaceWithout[scope]!)), 403, 'INSUFFICIENT_SCOPE');
    expectJsonError(await get(exportUrl(hostile.id, file), bearer(tenant.keys.personal)), 403, 'WRONG_KEY_TYPE');
    expectJsonError(await get(exportUrl(hostile.id, file), bearer(tenant.keys.otherWorkspace)), 403, 'WORKSPACE_MISMATCH');
    // Another workspace's raffle under this workspace's path, and an id that is no raffle's.
    expectJsonError(await get(exportUrl(tenant.foreignRaffle.id, file), bearer(tenant.keys.workspace)), 404, 'RAFFLE_NOT_FOUND');
    expectJsonError(await get(exportUrl('raf_nope', file), bearer(tenant.keys.workspace)), 404, 'RAFFLE_NOT_FOUND');
    // The other workspace's key on its own workspace's path still does not reach this raffle.
    expectJsonError(await get(exportUrl(hostile.id, file, tenant.otherWorkspace.id), bearer(tenant.keys.otherWorkspace)), 404, 'RAFFLE_NOT_FOUND');
  });

  it('has no HEAD (which would read a whole export to discard it): 405, allowing GET', async () => {
    const res = await app.inject({ method: 'HEAD', url: exportUrl(hostile.id, 'entries.csv'), headers: bearer(tenant.keys.workspace) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });

  it('asks each file for its own scope only: a key without entries:read still exports the winners', async () => {
    const res = await app.inject({ url: exportUrl(hostile.id, 'winners.csv'), headers: bearer(tenant.keys.workspaceWithout['entries:read']!) });
    expect(res.statusCode).toBe(200);
  });
});

describe('a 100,000-entry raffle', () => {
  /** The data plane over a pool that counts the queries reading a batch of entries. */
  let counted: { app: DataPlaneApp; url: string; entryReads: () => number };

  beforeAll(async () => {
    let reads = 0;
    const sql = new Proxy(db.database.sql, {
      apply(target, self, args: unknown[]) {
        const strings = args[0] as readonly string[] | undefined;
        if (Array.isArray(strings) && strings[0]?.includes('workspace_json as json from entries')) reads++;
        return Reflect.apply(target, self, args);
      },
    });
    const countedApp = await buildTestApp({ ...db.database, sql } as Database, db.url);
    await countedApp.listen({ host: '127.0.0.1', port: 0 });
    const { port } = countedApp.server.address() as { port: number };
    counted = { app: countedApp, url: `http://127.0.0.1:${port}`, entryReads: () => reads };
  });

  afterAll(async () => {
    await counted?.app.close();
  });

  it('streams every entry in one response, in arrival order, and the file parses', { timeout: 120_000 }, async () => {
    const res = await fetch(counted.url + exportUrl(big.id, 'entries.csv'), { headers: bearer(tenant.keys.workspace) });
    expect(res.status).toBe(200);
    // Streamed, not sent with a length computed up front.
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    let chunks = 0;
    const parts: Buffer[] = [];
    for await (const chunk of res.body!) {
      chunks++;
      parts.push(Buffer.from(chunk));
    }
    expect(chunks).toBeGreaterThan(10);
    const csv = parseStrictCsv(Buffer.concat(parts).toString('utf8'));
    expect(csv.bom).toBe(true);
    expect(csv.rows).toHaveLength(BIG);
    const rows = csvObjects(csv);
    expect(rows.map((r) => r.id)).toEqual(big.entryIds);
    expect(rows.filter((r) => r.walletSnapshot === `'${BULK_FORMULA_WALLET}`)).toHaveLength(Math.floor(BIG / 11) - Math.floor(BIG / 77));
    expect(rows.filter((r) => r.statusReason === BULK_STATUS_REASON)).toHaveLength(BIG / 5);
    expect(rows[12]!).toMatchObject({ duplicateFlags: '{"ipReuse":["ent_twin"]}', entryWeight: '1' });
    expect(rows[2]!.entryWeight).toBe('2.5');
    // The JSON list at the same place holds the same values.
    const res250 = await app.inject({ url: `${rafflePath(big.id)}/entries?limit=250`, headers: bearer(tenant.keys.workspace) });
    expect(rows.slice(0, 250).map((r) => WORKSPACE_ENTRY_CSV_COLUMNS.map((c) => r[c]))).toEqual(
      expectedRows(WORKSPACE_ENTRY_CSV_COLUMNS, (res250.json() as { data: Record<string, unknown>[] }).data),
    );
  });

  it('stops reading when the client goes away, and the pool is left idle', { timeout: 60_000 }, async () => {
    const before = counted.entryReads();
    const controller = new AbortController();
    const res = await fetch(counted.url + exportUrl(big.id, 'entries.csv'), { headers: bearer(tenant.keys.workspace), signal: controller.signal });
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    controller.abort();
    await reader.closed.catch(() => {});
    // Once nothing more is read, the pool runs no query; the export needed about 100 batches.
    await vi.waitFor(() => expect(counted.app.database.poolStats().running).toBe(0), { timeout: 10_000 });
    const read = counted.entryReads() - before;
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(50);
    // The service is unharmed: the next export runs to its end.
    const again = await fetch(counted.url + exportUrl(hostile.id, 'entries.csv'), { headers: bearer(tenant.keys.workspace) });
    expect(parseStrictCsv(Buffer.from(await again.arrayBuffer()).toString('utf8')).rows).toHaveLength(FORMULAS.length);
  });
});
