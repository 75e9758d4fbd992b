import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runMigrations } from '../src/migrate.js';

// Issue 34: a delete's foreign-key checks look up the referencing rows by the key's columns; a key
// without an index leading with them costs a scan of the referencing table per deleted row.
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `t_fk_${randomBytes(5).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
const sql = postgres(url, { max: 1, onnotice: () => {} });

beforeAll(async () => {
  await admin.unsafe(`create database ${name}`);
  await runMigrations(url);
});
afterAll(async () => {
  await sql.end({ timeout: 5 });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end({ timeout: 5 });
});

it('every foreign key has an index leading with its columns (whole, or of the rows where it is set)', async () => {
  // A partial index serves the check only when its predicate is "the key is not null", which the
  // check's `key = $1` implies.
  const uncovered = await sql<{ key: string }[]>`
    select c.conrelid::regclass || '.' || c.conname as key
    from pg_constraint c
    where c.contype = 'f' and c.connamespace = 'public'::regnamespace
      and not exists (
        select 1 from pg_index i
        where i.indrelid = c.conrelid
          and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
          and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey
          and (i.indpred is null or (cardinality(c.conkey) = 1 and pg_get_expr(i.indpred, i.indrelid) =
            '(' || (select quote_ident(a.attname) from pg_attribute a where a.attrelid = c.conrelid and a.attnum = c.conkey[1]) || ' IS NOT NULL)')))
    order by 1`;
  expect(uncovered.map((r) => r.key)).toEqual([]);
});
