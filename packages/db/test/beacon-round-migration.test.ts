import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, runMigrations } from '../src/migrate.js';

// A raffle closed before beacon rounds existed: the migration that adds them leaves it without one.
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `t_beacon_${randomBytes(5).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
const sql = postgres(url, { max: 1, onnotice: () => {} });
const before = mkdtempSync(path.join(tmpdir(), 'migrations-before-beacon-'));

beforeAll(async () => {
  await admin.unsafe(`create database ${name}`);
  // The committed migrations up to the one adding the beacon columns, applied as an older release did.
  cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
  const journalFile = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const added = journal.entries.findIndex((e) => e.tag.endsWith('_raffle_beacon_round'));
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

it('raffles closed before the migration keep a null beacon round and chain hash', async () => {
  await sql`insert into workspaces (id, slug, name) values ('ws_old', 'old', 'Old')`;
  await sql`
    insert into raffles (id, workspace_id, slug, title, mechanic, allocation_type, visibility, status, spots, settings, closed_at, workspace_item_json, public_item_json)
    values ('raffle_old', 'ws_old', 'old', 'Old', 'raffle', 'allowlist_gtd', 'public', 'closed', 1, '{}', now(), '{}', '{}')`;
  await runMigrations(url);
  const [row] = await sql`select status, beacon_round, beacon_chain_hash from raffles where id = 'raffle_old'`;
  expect(row).toEqual({ status: 'closed', beacon_round: null, beacon_chain_hash: null });
});
