import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeFinding, findSqlOutsideDb } from './support/sql-outside-db.js';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * packages/db is the one floor with SQL (docs: house-style, "Where things go"): the domain and the
 * services call its `(db | tx, args)` functions. This keeps a statement from creeping back in.
 */
describe('SQL stays in packages/db', () => {
  it('finds no drizzle import or query, SQL template or .execute( in any other package or service', () => {
    expect(findSqlOutsideDb(REPO_ROOT).map(describeFinding)).toEqual([]);
  });

  describe('on a planted tree', () => {
    const root = mkdtempSync(join(tmpdir(), 'sql-stays-in-db-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const plant = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    plant('packages/domain/src/rules.ts', [
      "import { eq } from 'drizzle-orm';",
      "import type { PgTable } from 'drizzle-orm/pg-core';",
      '/** Reads with `sql`, never writes. */',
      'export const read = (tx: any, id: string) =>',
      '  tx',
      '    .execute(`select 1`);',
      "export const load = () => import('drizzle-orm/postgres-js');",
    ].join('\n'));
    plant('services/api/src/routes/count.ts', [
      'export async function count(options: any, tx: any, table: any, id: string) {',
      '  const rows = await options.sql<{ n: number }[]>`select count(*) from t where ${options.sql`id = ${id}`}`;',
      '  await options.db.execute(id);',
      '  await options.sql.unsafe(id);',
      '  await options.database.db.query.raffles.findFirst({ where: (r: any, { eq }: any) => eq(r.id, id) });',
      '  await tx.insert(table).values({ id });',
      '  return rows;',
      '}',
    ].join('\n'));
    plant('services/web/src/page.tsx', [
      'const query = (client: any) => client`',
      '  update raffles r set status = ${"open"}`;',
      'export const Page = () => <div>{query}</div>;',
    ].join('\n'));
    // Not production code, or the floor that owns SQL: left alone.
    plant('packages/db/src/writes/thing.ts', "import { sql } from 'drizzle-orm';\nexport const q = sql`select 1`;");
    plant('packages/domain/src/rules.test.ts', 'export const q = sql`select 1`;');
    plant('packages/domain/test/rules.ts', 'export const q = sql`select 1`;');
    plant('services/api/dist/routes/count.js', 'export const q = sql`select 1`;');
    plant('services/api/src/node_modules/x/index.js', 'export const q = sql`select 1`;');
    plant('packages/kit/src/testing/database.ts', 'export const drop = (sql: any) => sql.unsafe(`drop database t`);');
    plant('services/api/src/routes/harmless.ts', "// no sql`here` in a comment\nexport const css = (s: any) => s;\nexport const style = css`color: red`;\nexport const run = (job: any, cache: Map<string, number>) => [job.execute(), cache.delete('k'), job.query.x.findMany()];");

    it('names the file and line of each, and nothing else', () => {
      expect(findSqlOutsideDb(root).map(describeFinding)).toEqual([
        'packages/domain/src/rules.ts:1: imports drizzle-orm',
        'packages/domain/src/rules.ts:2: imports drizzle-orm',
        'packages/domain/src/rules.ts:5: tx.execute(…)',
        'packages/domain/src/rules.ts:7: imports drizzle-orm',
        'services/api/src/routes/count.ts:2: sql`…` template',
        'services/api/src/routes/count.ts:3: db.execute(…)',
        'services/api/src/routes/count.ts:4: sql.unsafe(…)',
        'services/api/src/routes/count.ts:5: drizzle relational query',
        'services/api/src/routes/count.ts:6: tx.insert(…) query',
        'services/web/src/page.tsx:1: SQL statement template',
      ]);
    });
  });
});
