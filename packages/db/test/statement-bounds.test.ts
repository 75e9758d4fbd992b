import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundTransaction, createDatabase, isDatabaseTimeout, rawTransactionOf, runMigrations, STATEMENT_BOUNDS, type Database, type SqlOrTx } from '../src/index.js';

/**
 * Statements are bounded (issue 22): a pool opened with bounds gives up on a lock or a long
 * statement with an error the services answer 503; a transaction raises them for itself only; the
 * readiness ping answers while every pooled connection waits; a migration that cannot get its lock
 * rolls back and tries again instead of queueing every request behind it.
 */

const URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BOUNDS = { statementTimeoutMs: 1500, lockTimeoutMs: 300 };

async function settingsOf(sql: SqlOrTx): Promise<{ statement_timeout: string; lock_timeout: string }> {
  const [row] = await sql<{ statement_timeout: string; lock_timeout: string }[]>`
    select current_setting('statement_timeout') as statement_timeout, current_setting('lock_timeout') as lock_timeout`;
  return row!;
}
const table = `lock_probe_${randomBytes(4).toString('hex')}`;
let admin: postgres.Sql;

/** Holds `table` ACCESS EXCLUSIVE on a connection of its own until the returned function is called. */
async function lockTable(sql: postgres.Sql, name: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let granted!: () => void;
  const lockGranted = new Promise<void>((resolve) => (granted = resolve));
  const transaction = sql.begin(async (tx) => {
    await tx`lock table ${tx(name)} in access exclusive mode`;
    granted();
    await released;
  });
  await Promise.race([lockGranted, transaction]);
  return async () => {
    release();
    await transaction;
  };
}

beforeAll(async () => {
  admin = postgres(URL, { max: 2, onnotice: () => {} });
  await admin`create table ${admin(table)} (id int)`;
});
afterAll(async () => {
  await admin`drop table if exists ${admin(table)}`;
  await admin.end({ timeout: 5 });
});

describe('a pool opened with statement bounds', () => {
  let database: Database;
  beforeAll(() => {
    database = createDatabase({ url: URL, max: 2, statementBounds: BOUNDS });
  });
  afterAll(() => database.close());

  it('gives up waiting for a locked table after its lock bound, with an error isDatabaseTimeout knows', async () => {
    const release = await lockTable(admin, table);
    try {
      // The lock is still held: only its bound can have answered, and 55P03 says it did.
      const error = await database.sql`select * from ${database.sql(table)}`.catch((e: unknown) => e);
      expect(isDatabaseTimeout(error), String(error)).toBe(true);
      expect((error as { code: string }).code).toBe('55P03');
    } finally {
      await release();
    }
  });

  it('cancels a statement that runs past its bound, with an error isDatabaseTimeout knows', async () => {
    const error = await database.sql`select pg_sleep(5)`.catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe('57014');
    expect(isDatabaseTimeout(error)).toBe(true);
  });

  it('lets a transaction raise its bounds for itself only', async () => {
    const inside = await database.db.transaction(async (tx) => {
      await boundTransaction(tx, STATEMENT_BOUNDS.draw);
      return settingsOf(rawTransactionOf(tx));
    });
    expect(inside).toEqual({ statement_timeout: '1min', lock_timeout: '5s' });
    // Every connection of the pool, the one the transaction used among them, is back to the pool's bounds.
    const after = await Promise.all([settingsOf(database.sql), settingsOf(database.sql)]);
    expect(after).toEqual([
      { statement_timeout: '1500ms', lock_timeout: '300ms' },
      { statement_timeout: '1500ms', lock_timeout: '300ms' },
    ]);
  });

  it('pings on a connection of its own while every pooled connection waits on a lock', async () => {
    // Lock waits far longer than the test: the pooled queries can only end when the lock does.
    const patient = createDatabase({ url: URL, max: 2, statementBounds: { statementTimeoutMs: 0, lockTimeoutMs: 0 } });
    const release = await lockTable(admin, table);
    try {
      let settled = 0;
      const waiting = Array.from({ length: 4 }, () => patient.sql`select * from ${patient.sql(table)}`.finally(() => (settled += 1)));
      await patient.ping();
      expect(settled, 'the ping answered while every pooled query still waited').toBe(0);
      await release();
      await Promise.all(waiting);
    } finally {
      await release();
      await patient.close();
    }
  });
});

it('a closed database no longer pings', async () => {
  const database = createDatabase({ url: URL, max: 1 });
  await database.close();
  await expect(database.ping()).rejects.toMatchObject({ code: 'CONNECTION_ENDED' });
});

it('a migration that cannot get a lock rolls back and is tried again once the lock is gone', async () => {
  const name = `t_migrate_${randomBytes(4).toString('hex')}`;
  await admin.unsafe(`create database ${name}`);
  const url = URL.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
  const target = postgres(url, { max: 2, onnotice: () => {} });
  try {
    // drizzle's own bookkeeping table, as it would create it, held by another session: the run's first read of it waits.
    await target`create schema drizzle`;
    await target`create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`;
    let releaseLock: (() => Promise<void>) | null = await lockTable(target, 'drizzle.__drizzle_migrations');
    const timeouts: number[] = [];
    await runMigrations(url, {
      onLockTimeout: (attempt) => {
        timeouts.push(attempt);
        const releasing = releaseLock;
        releaseLock = null;
        void releasing?.();
      },
    });
    expect(timeouts.length).toBeGreaterThan(0);
    const [applied] = await target<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(applied!.n).toBeGreaterThan(0);
  } finally {
    await target.end({ timeout: 5 });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
  }
});
