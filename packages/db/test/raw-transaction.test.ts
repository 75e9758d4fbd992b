import { describe, expect, it } from 'vitest';
import { createDatabase, rawTransactionOf } from '../src/index.js';

/**
 * Entering a raffle sends its admission reads as one pipeline on the postgres.js transaction under
 * a drizzle one (`rawTransactionOf`, which reads a drizzle internal). These pin what that relies on.
 */

const URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('rawTransactionOf', () => {
  it('is the same transaction as the drizzle one: same backend, same transaction id, sees its uncommitted work', async () => {
    const database = createDatabase({ url: URL, max: 2 });
    try {
      await database.db.transaction(async (tx) => {
        const raw = rawTransactionOf(tx);
        await tx.execute('create temporary table raw_tx_probe (n int) on commit drop');
        await tx.execute('insert into raw_tx_probe values (1)');
        const [seen] = await raw<{ n: number; pid: number; xid: string }[]>`
          select count(*)::int as n, pg_backend_pid() as pid, txid_current()::text as xid from raw_tx_probe`;
        const [drizzleSide] = (await tx.execute('select pg_backend_pid() as pid, txid_current()::text as xid')) as unknown as { pid: number; xid: string }[];
        expect(seen).toMatchObject({ n: 1, pid: drizzleSide!.pid, xid: drizzleSide!.xid });
      });
    } finally {
      await database.close();
    }
  });

  it('pipelines: statements sent with .execute() run in the order sent, each after the one before finished', async () => {
    const database = createDatabase({ url: URL, max: 2 });
    try {
      const order = await database.db.transaction(async (tx) => {
        const raw = rawTransactionOf(tx);
        // The first statement sleeps: if the second ran on another connection or overtook it, its
        // clock would read earlier than the first one's end.
        const [slow, fast] = await Promise.all([
          raw<{ at: number }[]>`select pg_sleep(0.2), extract(epoch from clock_timestamp())::float8 as at`.execute(),
          raw<{ at: number }[]>`select extract(epoch from clock_timestamp())::float8 as at`.execute(),
        ]);
        return { slowEnded: slow[0]!.at, fastRan: fast[0]!.at };
      });
      expect(order.fastRan).toBeGreaterThanOrEqual(order.slowEnded);
    } finally {
      await database.close();
    }
  });
});
