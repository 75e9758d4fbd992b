import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { inputCausedFailure } from '../src/input-caused-errors.js';

/** Real refusals from the real server, each mapped to the status its cause deserves. */

const sql = postgres(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', { max: 1, onnotice: () => {} });
afterAll(() => sql.end({ timeout: 5 }));

async function refusal(statements: (tx: postgres.TransactionSql) => Promise<unknown>): Promise<unknown> {
  try {
    await sql.begin(async (tx) => {
      await tx`create temporary table things (id int primary key, name text not null check (length(name) < 5), n smallint)`;
      await statements(tx);
    });
  } catch (error) {
    return error;
  }
  throw new Error('expected the statement to fail');
}

describe('inputCausedFailure', () => {
  it('maps what the input caused to 400 or 409', async () => {
    expect(inputCausedFailure(await refusal((tx) => tx`insert into things values (1, 'a'), (1, 'b')`))).toMatchObject({ status: 409 });
    expect(inputCausedFailure(await refusal((tx) => tx`insert into things values (1, 'too long')`))).toMatchObject({ status: 400 });
    expect(inputCausedFailure(await refusal((tx) => tx`insert into things values (1, null)`))).toMatchObject({ status: 400 });
    expect(inputCausedFailure(await refusal((tx) => tx`insert into things (id, name, n) values (1, 'a', ${70000})`))).toMatchObject({ status: 400 });
    expect(inputCausedFailure(await refusal((tx) => tx`select ${'0000-06-01T00:00:00Z'}::timestamptz`))).toMatchObject({ status: 400 });
    expect(inputCausedFailure(await refusal((tx) => tx`select ${'x\u0000y'}::text`))).toMatchObject({ status: 400 });
  });

  it('finds the refusal through a wrapper (drizzle wraps the driver error as its cause)', async () => {
    const driverError = await refusal((tx) => tx`insert into things values (1, 'a'), (1, 'b')`);
    expect(inputCausedFailure(new Error('Failed query', { cause: driverError }))).toMatchObject({ status: 409 });
  });

  it('leaves server faults and connection failures alone', async () => {
    expect(inputCausedFailure(await refusal((tx) => tx`select * from no_such_table`))).toBeNull();
    expect(inputCausedFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeNull();
    expect(inputCausedFailure(new TypeError('x'))).toBeNull();
  });
});
