import { randomBytes } from 'node:crypto';
import {
  boundTransaction,
  createDatabase,
  isDatabaseTimeout,
  listenForOutboxAppends,
  migrationUrlOf,
  poolerConnectQuery,
  rawTransactionOf,
  runMigrations,
  STATEMENT_BOUNDS,
  type Database,
} from '@raffle/db';
import { OUTBOX_NOTIFY_CHANNEL } from '@raffle/contracts';
import postgres from 'postgres';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceConfig } from '../src/index.js';
import { startPrivatePgBouncer, type PrivatePgBouncer } from '../src/testing/faults.js';
import { TEST_HTTP_SETTINGS, testErrors as errors } from './support/test-service.js';

/**
 * The pool behind PgBouncer 1.18 in transaction mode (issue 27, docs/decisions/0037): nothing
 * prepared, nothing refused at startup, the statement bounds and jit=off from the pooler's
 * connect_query, advisory xact locks, LISTEN on the direct URL, migrations on the direct URL.
 * (The test lives here, not in packages/db, because the PgBouncer harness is service-kit's.)
 */

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Shorter than a request's, so a statement over it is cancelled within the test's patience. */
const BOUNDS = { statementTimeoutMs: 1500, lockTimeoutMs: 300 };
const name = `pgb_${randomBytes(5).toString('hex')}`;
const admin = new URL(ADMIN_URL);
const directUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();

/** A service with the database only, given its pool (createServiceApp checks the pooler's sessions at startup). */
const serviceConfig: ServiceConfig = { NODE_ENV: 'test', LOG_LEVEL: 'silent', ...TEST_HTTP_SETTINGS };
const DATABASE_ONLY = { database: true, nats: false, parsedInput: false };

let adminSql: postgres.Sql;
/** The test database itself, not through the pooler: setup and the lock holder. */
let directSql: postgres.Sql;
let pooler: PrivatePgBouncer;
let database: Database;

beforeAll(async () => {
  adminSql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await adminSql.unsafe(`create database ${name}`);
  await runMigrations(directUrl);
  directSql = postgres(directUrl, { max: 2, onnotice: () => {} });
  // Fewer server connections than the pool has clients: statements of different clients share them.
  pooler = await startPrivatePgBouncer({ targetHost: admin.hostname, targetPort: Number(admin.port || 5432), poolMode: 'transaction', defaultPoolSize: 3, connectQuery: poolerConnectQuery(BOUNDS) });
  database = createDatabase({ url: pooler.url(name), max: 12, poolMode: 'transaction', directUrl, statementBounds: BOUNDS, applicationName: 'pgbouncer-test' });
});

afterAll(async () => {
  await database?.close();
  await directSql?.end({ timeout: 5 });
  await pooler?.destroy();
  await adminSql?.unsafe(`drop database if exists ${name} with (force)`);
  await adminSql?.end({ timeout: 5 });
});

describe('a pool in transaction mode behind PgBouncer', () => {
  it('answers many parallel statements and transactions with nothing prepared', async () => {
    const reads = Array.from({ length: 300 }, (_, i) => database.sql<{ n: number; s: string }[]>`select ${i}::int as n, ${`v${i}`}::text as s`.then(([row]) => row));
    const transactions = Array.from({ length: 60 }, (_, i) =>
      database.sql.begin(async (tx) => {
        const [a] = await tx<{ n: number }[]>`select ${i}::int as n`;
        const [b] = await tx<{ n: number }[]>`select ${a!.n + 1}::int as n`;
        return b!.n;
      }),
    );
    const drizzleTransactions = Array.from({ length: 30 }, (_, i) => database.db.transaction(async (tx) => (await rawTransactionOf(tx)<{ n: number }[]>`select ${i * 2}::int as n`)[0]!.n));
    const [readRows, sums, doubled] = await Promise.all([Promise.all(reads), Promise.all(transactions), Promise.all(drizzleTransactions)]);
    expect(readRows.map((row) => row!.n)).toEqual(readRows.map((_, i) => i));
    expect(readRows.every((row, i) => row!.s === `v${i}`)).toBe(true);
    expect(sums).toEqual(sums.map((_, i) => i + 1));
    expect(doubled).toEqual(doubled.map((_, i) => i * 2));
    // pg_prepared_statements is per server session: none of the pooler's holds a named statement.
    const prepared = await Promise.all(Array.from({ length: 12 }, () => database.sql<{ n: number }[]>`select count(*)::int as n from pg_prepared_statements`.then(([row]) => row!.n)));
    expect(new Set(prepared)).toEqual(new Set([0]));
  });

  it('runs every statement with jit off and the pool\'s bounds, from the pooler', async () => {
    expect(await database.sessionDefaultsProblem()).toBeNull();
    const [row] = await database.sql<{ jit: string; statement_timeout: string; application_name: string }[]>`
      select current_setting('jit') as jit, current_setting('statement_timeout') as statement_timeout, current_setting('application_name') as application_name`;
    expect(row).toEqual({ jit: 'off', statement_timeout: '1500ms', application_name: 'pgbouncer-test' });
  });

  it('cancels a statement that runs past its bound, through the pooler', async () => {
    const error = await database.sql`select pg_sleep(4)`.catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe('57014');
    expect(isDatabaseTimeout(error)).toBe(true);
  });

  it('gives up on a locked table after its lock bound, through the pooler', async () => {
    await directSql.unsafe(`create table ${name}_locked (id int)`);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let granted!: () => void;
    const lockGranted = new Promise<void>((resolve) => (granted = resolve));
    const holder = directSql.begin(async (tx) => {
      await tx.unsafe(`lock table ${name}_locked in access exclusive mode`);
      granted();
      await released;
    });
    try {
      await Promise.race([lockGranted, holder]);
      const error = await database.sql.unsafe(`select * from ${name}_locked`).catch((e: unknown) => e);
      expect((error as { code: string }).code).toBe('55P03');
    } finally {
      release();
      await holder;
    }
  });

  it('lets a transaction raise its bounds for itself only: SET LOCAL stays with its transaction', async () => {
    const inside = await database.db.transaction(async (tx) => {
      await boundTransaction(tx, STATEMENT_BOUNDS.draw);
      return (await rawTransactionOf(tx)<{ t: string }[]>`select current_setting('statement_timeout') as t`)[0]!.t;
    });
    expect(inside).toBe('1min');
    // Every server connection the pooler holds is back at the pooler's default.
    const after = await Promise.all(Array.from({ length: 12 }, () => database.sql<{ t: string }[]>`select current_setting('statement_timeout') as t`.then(([row]) => row!.t)));
    expect(new Set(after)).toEqual(new Set(['1500ms']));
  });

  it('serializes transactions on an advisory xact lock', async () => {
    await directSql.unsafe(`create table ${name}_counter (n int)`);
    await directSql.unsafe(`insert into ${name}_counter values (0)`);
    // Each reads the counter, waits, writes it back plus one: without the lock the writes overlap and some are lost.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        database.sql.begin(async (tx) => {
          await tx`select pg_advisory_xact_lock(727071)`;
          const [row] = await tx.unsafe<{ n: number }[]>(`select n from ${name}_counter`);
          await tx`select pg_sleep(0.01)`;
          await tx.unsafe(`update ${name}_counter set n = $1`, [row!.n + 1]);
        }),
      ),
    );
    const [row] = await database.sql.unsafe<{ n: number }[]>(`select n from ${name}_counter`);
    expect(row!.n).toBe(20);
  });

  it('hears NOTIFYs sent through the pooler on the direct connection', async () => {
    expect(database.listenSql).not.toBeNull();
    expect(database.listenSql).not.toBe(database.sql);
    let heard = 0;
    const listener = await listenForOutboxAppends(database.listenSql!, () => heard++);
    try {
      await database.sql`select pg_notify(${OUTBOX_NOTIFY_CHANNEL}, '')`;
      await database.sql.begin(async (tx) => tx`select pg_notify(${OUTBOX_NOTIFY_CHANNEL}, '')`);
      for (let i = 0; i < 100 && heard < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toBe(2);
    } finally {
      await listener.unlisten();
    }
  });

  it('has nowhere to LISTEN without a direct URL', async () => {
    const withoutDirect = createDatabase({ url: pooler.url(name), max: 1, poolMode: 'transaction' });
    try {
      expect(withoutDirect.listenSql).toBeNull();
      await withoutDirect.ping();
    } finally {
      await withoutDirect.close();
    }
  });
});

describe('what transaction mode refuses', () => {
  it('a session-mode pool: PgBouncer refuses its startup parameters', async () => {
    const sessionPool = createDatabase({ url: pooler.url(name), max: 1, statementBounds: BOUNDS, connectionWaitTimeoutMs: 3000 });
    try {
      const error = await sessionPool.sql`select 1`.catch((e: unknown) => e);
      expect(String((error as Error).message)).toMatch(/unsupported startup parameter/);
    } finally {
      await sessionPool.close();
    }
  });

  it('a pooler whose sessions lack the bounds: sessionDefaultsProblem names the connect_query to set, and a service refuses to start', async () => {
    const bare = await startPrivatePgBouncer({ targetHost: admin.hostname, targetPort: Number(admin.port || 5432), poolMode: 'transaction', connectQuery: 'select 1' });
    const pool = createDatabase({ url: bare.url(name), max: 1, poolMode: 'transaction', statementBounds: BOUNDS });
    let app: FastifyInstance | undefined;
    try {
      const problem = await pool.sessionDefaultsProblem();
      expect(problem).toMatch(/statement_timeout is 0, not 1500/);
      expect(problem).toContain(poolerConnectQuery(BOUNDS));
      app = await createServiceApp({ name: 'bare-pooler', config: serviceConfig, errors, capabilities: DATABASE_ONLY, database: pool }).catch((error: unknown) => {
        expect(String(error)).toMatch(/DATABASE_POOL_MODE=transaction, but the pooler's server sessions do not carry the statement bounds/);
        return undefined;
      });
      if (app) await expect(app.ready()).rejects.toThrow(/connect_query/);
    } finally {
      await app?.close().catch(() => undefined);
      await pool.close();
      await bare.destroy();
    }
  });

  it('a service on a pooler that carries the bounds starts and is ready', async () => {
    const app = await createServiceApp({ name: 'pooled', config: serviceConfig, errors, capabilities: DATABASE_ONLY, database });
    try {
      await app.ready();
      expect((await app.inject({ url: '/health/ready' })).json()).toMatchObject({ status: 'ready', checks: { database: 'ok' } });
    } finally {
      await app.close();
    }
  });

  it('migrations through the pooler: they run on DATABASE_DIRECT_URL, or not at all', async () => {
    expect(() => migrationUrlOf({ DATABASE_URL: pooler.url(name), DATABASE_POOL_MODE: 'transaction' })).toThrow(/DATABASE_DIRECT_URL/);
    expect(migrationUrlOf({ DATABASE_URL: pooler.url(name), DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: directUrl })).toBe(directUrl);
    expect(migrationUrlOf({ DATABASE_URL: directUrl })).toBe(directUrl);
  });

  it('concurrent migration runs on the direct URL take turns while pooled traffic goes on', async () => {
    const traffic = Array.from({ length: 100 }, (_, i) => database.sql<{ n: number }[]>`select ${i}::int as n`);
    await Promise.all([runMigrations(directUrl), runMigrations(directUrl), runMigrations(directUrl), ...traffic]);
    const [row] = await database.sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(row!.n).toBeGreaterThan(0);
  });
});
