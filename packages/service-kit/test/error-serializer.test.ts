import { drizzle } from 'drizzle-orm/postgres-js';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { serializeError } from '../src/logging/error-serializer.js';

/**
 * Real failures of the real driver, serialized as the services log them: the statement and the
 * names Postgres gives survive, the values never do — not in the message, the detail, the stack
 * or a wrapped cause.
 */

const client = postgres(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', { max: 1, onnotice: () => {} });
const db = drizzle(client);
afterAll(() => client.end({ timeout: 5 }));

const SEED = 'f3b1c0ffee5eed0123456789abcdef0123456789abcdef0123456789abcdef01';

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the query to fail');
}

describe('a database error, as logged', () => {
  it('keeps the statement and SQLSTATE of a drizzle query error, never its parameters', async () => {
    const error = await failure(() => db.execute(sql`select ${SEED}::integer as n`));
    expect(String((error as Error).message)).toContain(SEED);
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain(SEED);
    expect(serializeError(error)).toMatchObject({ type: 'DrizzleQueryError', statement: 'select $1::integer as n', cause: { type: 'PostgresError', code: '22P02' } });
  });

  it('drops the detail that repeats a failing row, and the value after the message', async () => {
    const error = await failure(() =>
      client.begin(async (tx) => {
        await tx`create temporary table secrets (seed text check (length(seed) < 10))`;
        await tx`insert into secrets values (${SEED})`;
      }),
    );
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).toContain(SEED);
    const logged = serializeError(error);
    expect(JSON.stringify(logged)).not.toContain(SEED);
    expect(logged).toMatchObject({ type: 'PostgresError', code: '23514', table_name: 'secrets', constraint_name: 'secrets_seed_check' });
  });

  it('does not fold a wrapped query error into the outer message or stack', async () => {
    const inner = await failure(() => db.execute(sql`select ${SEED}::integer`));
    const outer = new Error('could not record the idempotent response', { cause: inner });
    const logged = JSON.stringify(serializeError(outer));
    expect(logged).not.toContain(SEED);
    expect(logged).toContain('could not record the idempotent response');
  });

  it('serializes what is not an Error without echoing it', () => {
    expect(serializeError(`seed=${SEED}`)).toEqual({ type: 'string', message: '[not an Error]' });
  });
});
