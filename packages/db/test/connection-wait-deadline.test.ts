import { describe, expect, it } from 'vitest';
import { ConnectionWaitTimeoutError, createDatabase } from '../src/index.js';

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
