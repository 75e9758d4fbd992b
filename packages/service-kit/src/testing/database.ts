import { randomBytes } from 'node:crypto';
import { createDatabase, runMigrations, type Database } from '@raffle/db';
import postgres from 'postgres';
import { inject } from 'vitest';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const urlFor = (name: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

async function withAdmin<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function prepareTemplateDatabase(template: string): Promise<void> {
  await withAdmin((sql) => sql.unsafe(`create database ${template}`));
  await runMigrations(urlFor(template));
}

export async function dropTemplateDatabase(template: string): Promise<void> {
  await withAdmin((sql) => sql.unsafe(`drop database if exists ${template} with (force)`));
}

export type TestDatabase = { url: string; database: Database; drop: () => Promise<void> };

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin((sql) => sql.unsafe(`create database ${name} template ${inject('templateDatabase')}`));
  const url = urlFor(name);
  const database = createDatabase({ url, max: 5 });
  return {
    url,
    database,
    drop: async () => {
      await database.close();
      await withAdmin((sql) => sql.unsafe(`drop database if exists ${name} with (force)`));
    },
  };
}
