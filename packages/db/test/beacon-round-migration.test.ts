import type postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runMigrations } from '../src/migrate.js';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from './support/migrated-before.js';

// A raffle closed before beacon rounds existed: the migration that adds them leaves it without one.
let before: DatabaseBeforeMigration;
let sql: postgres.Sql;
let url: string;

beforeAll(async () => {
  before = await databaseBeforeMigration('_raffle_beacon_round');
  ({ sql, url } = before);
});
afterAll(async () => {
  await before?.drop();
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
