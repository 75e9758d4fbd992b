import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { MIGRATIONS_FOLDER } from '../../src/migrate.js';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database at the release before one migration: its `sql`, its `url` (to migrate it on), and `drop`. */
export type DatabaseBeforeMigration = { sql: postgres.Sql; url: string; drop(): Promise<void> };

/**
 * A database of its own with the committed migrations applied up to, not including, the one whose
 * tag ends with `tagSuffix`, as an older release left it: a migration's backfill is then tested on
 * rows written in the shape it meets in production.
 */
export async function databaseBeforeMigration(tagSuffix: string): Promise<DatabaseBeforeMigration> {
  const name = `t_before_${randomBytes(5).toString('hex')}`;
  const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const folder = mkdtempSync(path.join(tmpdir(), 'migrations-before-'));
  await admin.unsafe(`create database ${name}`);
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const added = journal.entries.findIndex((e) => e.tag.endsWith(tagSuffix));
  if (added <= 0) throw new Error(`no migration after the first ends with ${tagSuffix}`);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, added) }));
  await migrate(drizzle(sql), { migrationsFolder: folder });
  return {
    sql,
    url,
    async drop() {
      await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
