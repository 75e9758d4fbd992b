import { WINNER_CSV_COLUMNS, WORKSPACE_ENTRY_CSV_COLUMNS } from '@raffle/contracts';
import { insertEntry, insertRaffle, insertUser, insertWin } from '@raffle/db';
import { BULK_FORMULA_WALLET, csvCellReadBack, csvObjects, insertBulkEntries, parseStrictCsv } from '@raffle/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { as, dashboardRaffles, type DashboardRaffles } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * The dashboard's CSV exports of a raffle's entries and finalized winners: any member downloads
 * them, the files hold what the dashboard's JSON lists hold (several batches' worth of entries),
 * and refusals are the management error body.
 */

const ENTRIES = 2_345;

let testDb: TestDatabase;
let app: ManagementApp;
let tenant: Tenant;
let api: DashboardRaffles;
let raffle: { id: string; slug: string };
let foreign: { id: string };

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
  tenant = await seedTenant(testDb.database);
  api = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.member.id);
  const at = Date.now() - 86_400_000;
  const base = { mechanic: 'raffle', allocationType: 'airdrop', visibility: 'public', status: 'finalized', spots: 3, publishedAt: new Date(at), openedAt: new Date(at), finalizedAt: new Date(at) } as const;
  const row = await insertRaffle(testDb.database.db, { ...base, workspaceId: tenant.workspace.id, slug: `export-${tenant.tag}`, title: 'Ünïcødé export' });
  raffle = { id: row.id, slug: row.slug };
  foreign = await insertRaffle(testDb.database.db, { ...base, workspaceId: tenant.otherWorkspace.id, slug: `foreign-${tenant.tag}`, title: 'Not yours' });
  await insertBulkEntries(testDb.database.sql, { raffleId: raffle.id, count: ENTRIES, startMs: at });
  // Three winners: two finalized (by position, not insertion), one only selected.
  for (const [i, position, status] of [[0, 2, 'finalized'], [1, 1, 'finalized'], [2, 3, 'selected']] as const) {
    const user = await insertUser(testDb.database.db, { handle: `winner-${i}-${tenant.tag}` });
    const entry = await insertEntry(testDb.database.db, { raffle: row, userId: user.id, status: 'valid', source: 'web', createdAt: new Date(at + 10_000_000 + i) });
    await insertWin(
      testDb.database.db,
      {
        raffleId: row.id,
        entryId: entry.id,
        userId: user.id,
        position,
        source: 'draw',
        status,
        walletSnapshot: i === 0 ? '@SUM(1+1)' : null,
        identitySnapshot: { handle: `wïnner-${i}`, displayName: '+Zoë', wallets: [] },
        deliveryStatus: 'pending',
        deliveryNote: i === 1 ? 'two,\nlines' : null,
        selectedAt: new Date(at),
        finalizedAt: status === 'finalized' ? new Date(at + 1) : null,
        disqualifiedAt: null,
        replacedAt: null,
        deliveredAt: null,
      },
      row,
    );
  }
}, 120_000);

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const exportUrl = (file: 'entries.csv' | 'winners.csv', raffleId = raffle.id, workspaceId = tenant.workspace.id) =>
  `${api.raffleUrl(raffleId, workspaceId)}/exports/${file}`;

async function download(file: 'entries.csv' | 'winners.csv', userId = tenant.member.id) {
  const res = await app.inject({ url: exportUrl(file), headers: as(userId) });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toBe(`attachment; filename="${raffle.slug}-${file.replace('.csv', '')}.csv"`);
  return parseStrictCsv(res.rawPayload.toString('utf8'));
}

const cells = (columns: readonly string[], records: Record<string, unknown>[]) => records.map((r) => columns.map((c) => csvCellReadBack(r[c])));

describe('the dashboard exports', () => {
  it('entries.csv: every entry the JSON list pages through, field for field, for any member', async () => {
    const csv = await download('entries.csv');
    expect(csv.bom).toBe(true);
    expect(csv.header).toEqual([...WORKSPACE_ENTRY_CSV_COLUMNS]);
    const listed = await api.walk<Record<string, unknown>>(`${api.raffleUrl(raffle.id)}/entries`, 250, 'DashboardEntryPage');
    expect(listed).toHaveLength(ENTRIES + 3);
    expect(csv.rows).toEqual(cells(WORKSPACE_ENTRY_CSV_COLUMNS, listed));
    expect(csvObjects(csv).filter((r) => r.walletSnapshot === `'${BULK_FORMULA_WALLET}`).length).toBeGreaterThan(100);
  });

  it('winners.csv: the finalized wins by position, as the wins list has them', async () => {
    const csv = await download('winners.csv', tenant.admin.id);
    expect(csv.header).toEqual([...WINNER_CSV_COLUMNS]);
    const finalized = await api.wins(raffle.id, '?status=finalized');
    expect(finalized.map((w) => w.position)).toEqual([1, 2]);
    // identitySnapshot is the winner as stored when the win was made (what the data plane's winners
    // list answers, text for text); the wins list reads it back from jsonb, whose key order differs.
    const rows = csvObjects(csv);
    const listed = csvObjects({ ...csv, rows: cells(WINNER_CSV_COLUMNS, finalized as unknown as Record<string, unknown>[]) });
    const withParsedIdentity = (r: Record<string, string>) => ({ ...r, identitySnapshot: JSON.parse(r.identitySnapshot!) as unknown });
    expect(rows.map(withParsedIdentity)).toEqual(listed.map(withParsedIdentity));
    expect(rows.map((r) => r.walletSnapshot)).toEqual(['', "'@SUM(1+1)"]);
    expect(rows[0]!.deliveryNote).toBe('two,\nlines');
    expect(JSON.parse(rows[1]!.identitySnapshot!)).toEqual({ handle: 'wïnner-0', displayName: '+Zoë', wallets: [] });
  });

  it.each(['entries.csv', 'winners.csv'] as const)('%s: 401 without a session, 403 for a non-member, 404 for a raffle the workspace does not have, 405 for HEAD', async (file) => {
    expect(expectManagementError(await app.inject({ url: exportUrl(file) }), 401).message).toMatch(/^SESSION_TOKEN_MISSING: /);
    expect(expectManagementError(await app.inject({ url: exportUrl(file), headers: as(tenant.outsider.id) }), 403).message).toMatch(/^FORBIDDEN: /);
    const foreignRes = await app.inject({ url: exportUrl(file, foreign.id), headers: as(tenant.owner.id) });
    expect(expectManagementError(foreignRes, 404).message).toMatch(/^RAFFLE_NOT_FOUND: /);
    expect(foreignRes.headers['content-disposition']).toBeUndefined();
    expect(expectManagementError(await app.inject({ url: exportUrl(file, 'raf_nope'), headers: as(tenant.owner.id) }), 404).message).toMatch(/^RAFFLE_NOT_FOUND: /);
    // No HEAD: it would read the whole export to discard it.
    expect((await app.inject({ method: 'HEAD', url: exportUrl(file), headers: as(tenant.owner.id) })).statusCode).toBe(405);
    // The outsider owns the other workspace: its raffle is theirs to export there, not here.
    const theirs = await app.inject({ url: exportUrl(file, foreign.id, tenant.otherWorkspace.id), headers: as(tenant.outsider.id) });
    expect(theirs.statusCode).toBe(200);
  });
});
