import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/client.js';
import { compressSnapshotChunk } from '../src/draw-snapshots/chunk-codec.js';
import { copyIdLiteral } from '../src/draw-snapshots/copy-literal.js';
import { readSnapshotChunkLines } from '../src/draw-snapshots/snapshot-chunks.js';
import { runMigrations } from '../src/migrate.js';
import { findDrawSnapshot } from '../src/queries/draw-selection.js';
import { insertDrawSnapshot } from '../src/writes/draw-snapshot.js';

// A draw snapshot's chunks (decision 0030) written with binary COPY and read back with it, in order.
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `t_chunks_${randomBytes(5).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
let database: Database;

async function raffle(id: string): Promise<string> {
  await database.sql.unsafe(`
    insert into raffles (id, workspace_id, slug, title, mechanic, allocation_type, visibility, status, spots, settings, workspace_item_json, public_item_json)
    values ('${id}', 'wks_chunks', '${id}', 'Chunks', 'raffle', 'allowlist_gtd', 'public', 'closed', 1, '{}', '{}', '{}')`);
  return id;
}

beforeAll(async () => {
  await admin.unsafe(`create database ${name}`);
  await runMigrations(url);
  database = createDatabase({ url, max: 2 });
  await database.sql`insert into workspaces (id, slug, name) values ('wks_chunks', 'chunks', 'Chunks')`;
});
afterAll(async () => {
  await database?.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end({ timeout: 5 });
});

it('reads many chunks back in seq order, inflated and joined, byte for byte', async () => {
  const id = await raffle('raf_many');
  // Pieces of different sizes and contents, so a wrong order or a lost chunk changes the text.
  const pieces = Array.from({ length: 12 }, (_, i) => `${i}:`.repeat(1000 + i * 7919) + randomBytes(50_000).toString('base64') + '\n');
  const chunks = await Promise.all(pieces.map((p) => compressSnapshotChunk(Buffer.from(p))));
  await database.db.transaction((tx) => insertDrawSnapshot(tx, { raffleId: id, algorithm: 'a', beacon: null, entryCount: 12, chunks }));

  const [stored] = await database.sql<{ n: number }[]>`select count(*)::int as n from raffle_draw_snapshot_chunks where raffle_id = ${id}`;
  expect(stored!.n).toBe(12);
  expect(await readSnapshotChunkLines(database.sql, id)).toBe(pieces.join(''));
  const snapshot = await findDrawSnapshot(database.db, id);
  expect(snapshot!.entryLines).toBe(pieces.join(''));
  expect(snapshot!.entryCount).toBe(12);
});

it('stores an empty eligible set as no chunks, read back as no lines', async () => {
  const id = await raffle('raf_empty');
  await database.db.transaction((tx) => insertDrawSnapshot(tx, { raffleId: id, algorithm: 'a', beacon: null, entryCount: 0, chunks: [] }));
  expect((await findDrawSnapshot(database.db, id))!.entryLines).toBe('');
});

it('serves a snapshot from before the chunks from its entry_lines', async () => {
  const id = await raffle('raf_legacy');
  await database.sql`insert into raffle_draw_snapshots (raffle_id, algorithm, entry_count, entry_lines) values (${id}, 'a', 1, 'x:y:1\n')`;
  expect((await findDrawSnapshot(database.db, id))!.entryLines).toBe('x:y:1\n');
});

it('names only ids that cannot leave a quoted literal in a COPY statement', () => {
  expect(copyIdLiteral('raf_01ABC')).toBe("'raf_01ABC'");
  for (const bad of ["raf_x' or 'a'='a", 'raf\\', 'raf x', '']) expect(() => copyIdLiteral(bad)).toThrow(/not an id a COPY statement can name/);
});

it('leaves the connection usable after a COPY that arrived whole before it was read (patched postgres.js)', async () => {
  const one = createDatabase({ url, max: 1 });
  try {
    // ~40 KB: more than the stream's buffer, less than one socket read, so every row is pushed before anyone reads.
    const stream = await one.sql.unsafe(`copy (select repeat('x', 60) from generate_series(1, 600)) to stdout`).readable();
    await new Promise((resolve) => setTimeout(resolve, 200));
    let bytes = 0;
    for await (const part of stream) bytes += (part as Buffer).length;
    expect(bytes).toBe(600 * 61);
    const next = one.sql`select 1 as ok`;
    const hung = new Promise((resolve) => setTimeout(() => resolve('hung'), 5_000));
    expect(await Promise.race([next.then(([row]) => row!.ok), hung])).toBe(1);
  } finally {
    await one.close();
  }
});
