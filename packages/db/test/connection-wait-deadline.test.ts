import { describe, expect, it } from 'vitest';
import { ConnectionWaitTimeoutError, createDatabase, isConnectionError, type Database } from '../src/index.js';

/**
 * The wait-for-a-connection deadline sheds queries only when the database is cut off. A pool
 * that is merely saturated — a drop's first second — serves its queue in order; only a wait past
 * the busy bound is shed there. (Outages themselves are in service-kit's postgres-outage test.)
 */

const URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('a saturated but healthy pool', () => {
  it('serves a queue that takes far longer than the connection-wait bound', async () => {
    const database = createDatabase({ url: URL, max: 1, connectionWaitTimeoutMs: 200, busyPoolWaitTimeoutMs: 10_000 });
    try {
      const started = Date.now();
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => database.sql`select pg_sleep(0.05)`));
      expect(Date.now() - started).toBeGreaterThan(800);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('sheds what waits past the busy bound, with a connection-class error', async () => {
    const database = createDatabase({ url: URL, max: 1, connectionWaitTimeoutMs: 100, busyPoolWaitTimeoutMs: 300 });
    try {
      const results = await Promise.allSettled(Array.from({ length: 12 }, () => database.sql`select pg_sleep(0.1)`));
      const shed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      expect(shed.length).toBeGreaterThan(0);
      expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThan(0);
      for (const error of shed) expect(error).toBeInstanceOf(ConnectionWaitTimeoutError);
    } finally {
      await database.close();
    }
  });
});

/** Runs a query on the pool's one connection and terminates its backend under it; resolves to the query's error. */
async function terminateUnderQuery(database: Database, admin: Database): Promise<unknown> {
  const [row] = await database.sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const pid = row!.pid;
  const killed = database.sql`select pg_sleep(5)`.then(
    () => null,
    (error: unknown) => error,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  await admin.sql`select pg_terminate_backend(${pid})`;
  return killed;
}

describe('a pool that recovered from a connection failure', () => {
  it('runs the next query on a fresh connection, without the terminated backend\'s error (postgres.js patch, porsager/postgres#1223)', async () => {
    const database = createDatabase({ url: URL, max: 1 });
    const admin = createDatabase({ url: URL, max: 1 });
    try {
      expect(isConnectionError(await terminateUnderQuery(database, admin))).toBe(true);
      // Unpatched, the reconnected connection's first ReadyForQuery rejects this with the old 57P01.
      expect(await database.sql`select 1 as one`).toEqual([{ one: 1 }]);
    } finally {
      await Promise.all([database.close(), admin.close()]);
    }
  });

  it('does not shed a saturated queue because of a failure that queries completed after', async () => {
    const database = createDatabase({ url: URL, max: 1, connectionWaitTimeoutMs: 200, busyPoolWaitTimeoutMs: 10_000 });
    const admin = createDatabase({ url: URL, max: 1 });
    try {
      // One connection failure, as a late "terminating connection" surfaces on a running query ...
      expect(isConnectionError(await terminateUnderQuery(database, admin))).toBe(true);
      // ... then the pool serves again ...
      await database.sql`select 1`.catch(() => database.sql`select 1`);
      // ... and is saturated: a transaction holds its one connection (nothing is pipelined onto
      // it) while others queue past the connection-wait bound. The failure is evidence of nothing
      // now: the queue is served, not shed.
      const slow = database.sql.begin((tx) => tx`select pg_sleep(0.6)`);
      const results = await Promise.allSettled([slow, ...Array.from({ length: 5 }, () => database.sql`select 1`)]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    } finally {
      await Promise.all([database.close(), admin.close()]);
    }
  });
});
