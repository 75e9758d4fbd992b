import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivatePostgresPair, type PrivatePostgresPair } from '../src/testing/faults.js';

/** The pair the replica-routing tests stand on: it must really stream, really pause, and come back. */
let pair: PrivatePostgresPair;
beforeAll(async () => {
  pair = await startPrivatePostgresPair();
}, 120_000);
afterAll(() => pair?.destroy());

async function query<T extends postgres.Row>(url: string, text: string): Promise<T[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return (await sql.unsafe(text)) as unknown as T[];
  } finally {
    await sql.end({ timeout: 1 });
  }
}

describe('a private primary and streaming replica', () => {
  it('streams writes to the replica, which is read-only', async () => {
    await query(pair.primary.url(), 'create table notes (id int primary key)');
    await query(pair.primary.url(), 'insert into notes values (1)');
    await pair.replica.caughtUp();
    expect(await query(pair.replica.url(), 'select id from notes')).toEqual([{ id: 1 }]);
    expect((await query<{ r: boolean }>(pair.replica.url(), 'select pg_is_in_recovery() as r'))[0]!.r).toBe(true);
    await expect(query(pair.replica.url(), 'insert into notes values (2)')).rejects.toThrow(/read-only/);
  });

  it('holds back what the primary writes while replay is paused, and catches up after', async () => {
    await pair.replica.pauseReplay();
    await query(pair.primary.url(), 'insert into notes values (3)');
    // The WAL arrives but is not applied: the replica still answers, without the row.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await query(pair.replica.url(), 'select id from notes where id = 3')).toEqual([]);
    await pair.replica.resumeReplay();
    await pair.replica.caughtUp();
    expect(await query(pair.replica.url(), 'select id from notes where id = 3')).toEqual([{ id: 3 }]);
  });

  it('a killed replica starts again and streams what it missed', async () => {
    await pair.replica.stop('kill');
    await query(pair.primary.url(), 'insert into notes values (4)');
    await pair.replica.start();
    await pair.replica.caughtUp();
    expect(await query(pair.replica.url(), 'select id from notes where id = 4')).toEqual([{ id: 4 }]);
  });
});
