import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStatementStats } from '../src/statement-stats.js';
import { summariseStatements } from '../src/statement-summary.js';
import { startStatsPostgres, type StatsPostgres } from '../src/stats-postgres.js';

/** The machine's shared server: only read here (its settings are what the stats Postgres copies). */
const MACHINE_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';

describe('the stats Postgres (--stats-postgres)', () => {
  let baseDir: string;
  let server: StatsPostgres;

  beforeAll(async () => {
    baseDir = await mkdtemp(join(tmpdir(), 'raffle-bench-stats-test-'));
    // As root the server runs as the OS user postgres, which must reach the directory.
    await chmod(baseDir, 0o755);
    server = await startStatsPostgres({ dataDir: join(baseDir, 'cluster', 'data'), referenceUrl: `${MACHINE_URL}/postgres`, log: () => {} });
  });

  afterAll(async () => {
    await server?.stop();
    await rm(baseDir, { recursive: true, force: true });
  });

  it("starts with the machine server's write settings and pg_stat_statements tracking every statement", async () => {
    const machine = postgres(`${MACHINE_URL}/postgres`, { max: 1, onnotice: () => {} });
    const own = postgres(`${server.url}/postgres`, { max: 1, onnotice: () => {} });
    try {
      const names = ['fsync', 'synchronous_commit', 'shared_buffers', 'autovacuum', 'max_wal_size', 'wal_level'];
      const read = (sql: postgres.Sql) => sql<{ name: string; setting: string }[]>`select name, setting from pg_settings where name = any(${names}) order by name`;
      expect(await read(own)).toEqual(await read(machine));
      expect(Object.keys(server.copiedSettings)).toEqual(expect.arrayContaining(names));
      const [preload] = await own<{ libraries: string; track: string }[]>`
        select current_setting('shared_preload_libraries') as libraries, current_setting('pg_stat_statements.track') as track`;
      expect(preload).toEqual({ libraries: 'pg_stat_statements', track: 'all' });
    } finally {
      await machine.end();
      await own.end();
    }
  });

  it("resets and reads back one database's statements, its own probe left out", async () => {
    const admin = postgres(`${server.url}/postgres`, { max: 1, onnotice: () => {} });
    await admin`create database stats_probe`;
    await admin.end();
    const stats = await openStatementStats(`${server.url}/postgres`, 'stats_probe');
    const sql = postgres(`${server.url}/stats_probe`, { max: 1, onnotice: () => {} });
    try {
      expect(stats.available).toBe(true);
      if (!stats.available) return;
      await sql`create table probe (id int primary key, note text)`;
      await stats.reset();
      for (let id = 1; id <= 7; id++) await sql`insert into probe (id, note) values (${id}, ${`note ${id}`})`;
      const rows = await stats.read();
      const insert = rows.find((r) => r.query.startsWith('insert into probe'));
      expect(insert).toMatchObject({ query: 'insert into probe (id, note) values ($1, $2)', toplevel: true, calls: 7, rows: 7 });
      // The reset came after the create table; the probe's own statements run in another database.
      expect(rows.some((r) => /create table|pg_stat_statements/i.test(r.query))).toBe(false);
      const summary = summariseStatements(rows, { name: 'write', count: 7 });
      expect(summary.lines[0]).toMatchObject({ text: 'insert into probe (id, note) values ($1, $2)', calls: 7, callsPerUnit: 1 });
    } finally {
      await sql.end();
      await stats.close();
    }
  });

  it('on a server without the extension preloaded, says so instead of measuring', async () => {
    const machine = postgres(`${MACHINE_URL}/postgres`, { max: 1, onnotice: () => {} });
    const [row] = await machine<{ libraries: string }[]>`select current_setting('shared_preload_libraries') as libraries`;
    await machine.end();
    const stats = await openStatementStats(`${MACHINE_URL}/postgres`, 'postgres');
    await stats.close();
    // The machine's server is not reconfigured by anyone here: whichever it is, the answer must match it.
    expect(stats.available).toBe(row!.libraries.includes('pg_stat_statements'));
    if (!stats.available) expect(stats.reason).toBe('pg_stat_statements is not in shared_preload_libraries');
  });
});
