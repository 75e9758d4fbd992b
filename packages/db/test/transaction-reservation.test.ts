import postgres from 'postgres';
import { describe, expect, it } from 'vitest';

/**
 * postgres.js 3.4.9 can write a transaction's BEGIN without reserving its connection when the
 * connection's pipeline is full (porsager/postgres#823, #1189): the BEGIN's reply then fails with
 * UNSAFE_TRANSACTION, and the pool may hand the connection, still in the transaction, to other
 * queries. `patches/postgres@3.4.9.patch` reserves the connection whenever BEGIN is written. The
 * bench's 20,000-entrant drop hit it (a few 500s a run) before the patch.
 *
 * The reproduction is the upstream one: a small pool with a short pipeline, every connection
 * busy, then plain queries and transactions at once, so BEGINs land on connections whose pipeline
 * they fill.
 */

const URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('transactions on a pool whose pipelines are full', () => {
  it('every sql.begin gets a connection of its own: no UNSAFE_TRANSACTION, no query inside another transaction', async () => {
    // max_pipeline is a connection option postgres.js reads but its types do not list.
    const options = { max: 3, max_pipeline: 2, onnotice: () => {} } as postgres.Options<Record<string, never>>;
    const sql = postgres(URL, options);
    try {
      const failures: string[] = [];
      for (let round = 0; round < 12; round++) {
        const sleepers = Array.from({ length: 3 }, () => sql`select pg_sleep(0.05)`);
        // A transaction marks its session (SET LOCAL ends with it); a plain query that sees the mark ran inside one.
        const plain = Array.from({ length: 6 }, () =>
          sql<{ name: string }[]>`select current_setting('application_name') as name`.then(([row]) => (row!.name === 'in-a-transaction' ? 'plain query ran inside a transaction' : null)),
        );
        const transactions = Array.from({ length: 5 }, () =>
          sql
            .begin(async (tx) => {
              await tx`set local application_name = 'in-a-transaction'`;
              await tx`select pg_sleep(0.01)`;
            })
            .then(() => null),
        );
        const outcomes = await Promise.allSettled([...sleepers.map((s) => s.then(() => null)), ...plain, ...transactions]);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') failures.push(String((outcome.reason as Error).message));
          else if (outcome.value) failures.push(outcome.value);
        }
      }
      expect(failures).toEqual([]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
