import type postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runMigrations } from '../src/migrate.js';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from './support/migrated-before.js';

// Issue 34, migration 0020: raffles published before the draw algorithm was bound at publish. Those
// on their way to a beacon draw are bound to it; those closed before beacon rounds stay seed-only.
let before: DatabaseBeforeMigration;
let sql: postgres.Sql;
let url: string;

beforeAll(async () => {
  before = await databaseBeforeMigration('_raffle_draw_algorithm');
  ({ sql, url } = before);
});
afterAll(async () => {
  await before?.drop();
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
