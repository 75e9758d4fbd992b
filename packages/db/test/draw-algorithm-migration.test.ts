import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, runMigrations } from '../src/migrate.js';

// Issue 34, migration 0020: raffles published before the draw algorithm was bound at publish. Those
// on their way to a beacon draw are bound to it; those closed before beacon rounds stay seed-only.
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `t_algo_${randomBytes(5).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
const sql = postgres(url, { max: 1, onnotice: () => {} });
const before = mkdtempSync(path.join(tmpdir(), 'migrations-before-draw-algorithm-'));

beforeAll(async () => {
  await admin.unsafe(`create database ${name}`);
  cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
  const journalFile = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const added = journal.entries.findIndex((e) => e.tag.endsWith('_raffle_draw_algorithm'));
  expect(added).toBeGreaterThan(0);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, added) }));
  await migrate(drizzle(sql), { migrationsFolder: before });
});
afterAll(async () => {
  await sql.end({ timeout: 5 });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end({ timeout: 5 });
  rmSync(before, { recursive: true, force: true });
});

it('binds weighted raffles still to be drawn with a beacon to es-hmac-sha256-drand-v1, and leaves the rest null', async () => {
  await sql`insert into workspaces (id, slug, name) values ('ws_old', 'old', 'Old')`;
  const raffle = (id: string, mechanic: string, status: string, published: boolean, beaconRound: number | null) => sql`
    insert into raffles (id, workspace_id, slug, title, mechanic, allocation_type, visibility, status, spots, settings, published_at, beacon_round, workspace_item_json, public_item_json)
    values (${id}, 'ws_old', ${id}, 'Old', ${mechanic}, 'allowlist_gtd', 'public', ${status}, 1, '{}', ${published ? new Date().toISOString() : null}, ${beaconRound}, '{}', '{}')`;
  await raffle('open_raffle', 'raffle', 'open', true, null);
  await raffle('scheduled_raffle', 'raffle', 'scheduled', true, null);
  await raffle('closed_with_round', 'raffle', 'drawn', true, 1234);
  await raffle('closed_before_rounds', 'raffle', 'finalized', true, null);
  await raffle('draft_raffle', 'raffle', 'draft', false, null);
  await raffle('open_fcfs', 'fcfs', 'open', true, null);
  await runMigrations(url);
  const rows = await sql<{ id: string; draw_algorithm: string | null }[]>`select id, draw_algorithm from raffles order by id`;
  expect(Object.fromEntries(rows.map((r) => [r.id, r.draw_algorithm]))).toEqual({
    closed_before_rounds: null,
    closed_with_round: 'es-hmac-sha256-drand-v1',
    draft_raffle: null,
    open_fcfs: null,
    open_raffle: 'es-hmac-sha256-drand-v1',
    scheduled_raffle: 'es-hmac-sha256-drand-v1',
  });
});
