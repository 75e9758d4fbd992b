import { createDatabase, isConnectionError, poolerConnectQuery, type Database } from '@raffle/db';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivatePgBouncer, startPrivatePostgres, type PrivatePgBouncer, type PrivatePostgres } from '../src/testing/faults.js';

/**
 * A pool in transaction mode behind PgBouncer while Postgres is gone (issue 34, decision 0041).
 * PgBouncer keeps the pool's connections and queues a statement that finds no server until one
 * logs in; the pool fails what it queued once PgBouncer refuses a fresh client, and PgBouncer runs
 * none of it when Postgres returns. A pool whose server connections are only busy keeps waiting.
 */

/** A server connection for the whole pool: one transaction holding it makes every other statement wait in PgBouncer. */
const ONE_SERVER = 1;
/** Far longer than the pool's wait for a connection (500 ms), far shorter than PgBouncer's query_wait_timeout (15 s). */
const HOLD_MS = 2000;
/** How long a statement queued for a Postgres that is down may take to fail; without the release it waits for Postgres. */
const PATIENCE_MS = 5000;

let server: PrivatePostgres;
let pooler: PrivatePgBouncer;

beforeAll(async () => {
  server = await startPrivatePostgres();
  const setup = postgres(server.url(), { max: 1, onnotice: () => {} });
  await setup`create table queued_writes (id int primary key)`;
  await setup.end({ timeout: 5 });
  pooler = await startPrivatePgBouncer({
    targetHost: '127.0.0.1',
    targetPort: server.port,
    poolMode: 'transaction',
    defaultPoolSize: ONE_SERVER,
    connectQuery: poolerConnectQuery({ statementTimeoutMs: 10_000, lockTimeoutMs: 1000 }),
    targetPassword: 'postgres',
  });
});

afterAll(async () => {
  await pooler?.destroy();
  await server?.destroy();
});

/** A transaction-mode pool through the pooler, closed after `fn`. */
async function withPool<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  const database = createDatabase({ url: pooler.url('postgres'), max: 3, poolMode: 'transaction', applicationName: 'pgbouncer-outage-test' });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** How `promise` settled, or 'still waiting' after `ms`. */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | { error: unknown } | 'still waiting'> {
  return Promise.race([
    promise.then((value) => ({ value }), (error: unknown) => ({ error })),
    new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms).unref()),
  ]);
}

describe('a transaction-mode pool behind PgBouncer', () => {
  it('waits for a server connection that is only busy, however long past its outage bound', async () => {
    await withPool(async (database) => {
      const holder = postgres(pooler.url('postgres'), { max: 1, prepare: false, onnotice: () => {} });
      try {
        // The pooler's one server connection, held for HOLD_MS by another client's transaction.
        const held = holder.begin(async (tx) => tx`select pg_sleep(${HOLD_MS / 1000})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        const waiting = database.sql<{ answer: number }[]>`select 42 as answer`;
        const [rows] = await Promise.all([waiting, held]);
        expect(rows).toEqual([{ answer: 42 }]);
      } finally {
        await holder.end({ timeout: 5 });
      }
    });
  });

  // A fast stop: every backend is gone at once, so PgBouncer has no server connection left. (After
  // a kill -9 the orphaned backends may serve a little longer; the services' fault suites cover it.)
  it('fails the writes queued in PgBouncer while Postgres is down as connection errors, and they never run when it returns', async () => {
    await withPool(async (database) => {
      await database.sql`select 1`;
      await server.stop('fast');
      // The first statement after the server connections are gone waits in PgBouncer while it
      // tries to log in; the pool pipelines the next ones on the same connections behind it.
      const ids = Array.from({ length: 12 }, (_, i) => 100 + i);
      const writes = ids.map((id) => database.sql`insert into queued_writes (id) values (${id})`);
      const outcomes = await Promise.all(writes.map((write) => settledWithin(write, PATIENCE_MS)));
      await server.start();

      expect(outcomes.filter((outcome) => outcome === 'still waiting')).toEqual([]);
      // A write is acknowledged (one that reached a server before it went), or it fails as a
      // connection error (503 with Retry-After).
      const acknowledged = ids.filter((_, i) => typeof outcomes[i] === 'object' && 'value' in outcomes[i]);
      const failed = outcomes.flatMap((outcome) => (typeof outcome === 'object' && 'error' in outcome ? [outcome.error] : []));
      expect(failed.filter((error) => !isConnectionError(error))).toEqual([]);
      expect(failed.length).toBeGreaterThan(0);
      // Postgres is back and the pool serves again; every acknowledged write is there, and none
      // the pool was told failed ran meanwhile.
      await expect.poll(() => database.sql`select 1 as up`.then((rows) => rows.length, () => 0), { timeout: 20_000, interval: 200 }).toBe(1);
      const direct = postgres(server.url(), { max: 1, onnotice: () => {} });
      try {
        const ran = await direct<{ id: number }[]>`select id from queued_writes where id = any(${ids}) order by id`;
        expect(ran.map((row) => row.id)).toEqual(acknowledged);
      } finally {
        await direct.end({ timeout: 5 });
      }
    });
  });
});
