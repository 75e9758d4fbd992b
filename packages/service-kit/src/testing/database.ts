import { randomBytes } from 'node:crypto';
import { createDatabase, runMigrations, STATEMENT_BOUNDS, type Database } from '@raffle/db';
import postgres from 'postgres';
import { inject } from 'vitest';
import { startPrivatePgBouncer, type PrivatePgBouncer } from './private-pgbouncer.js';
import { recordRunSecrets } from './run-log.js';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const urlFor = (name: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

const pooledUrlFor = (name: string, port: number) => {
  const url = new URL(ADMIN_URL);
  url.hostname = '127.0.0.1';
  url.port = String(port);
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

/** One PgBouncer in transaction mode in front of the test Postgres, for a run (global-setup.ts). */
export async function startRunPgBouncer(): Promise<PrivatePgBouncer> {
  const admin = new URL(ADMIN_URL);
  return startPrivatePgBouncer({ targetHost: admin.hostname, targetPort: Number(admin.port || 5432), poolMode: 'transaction', users: [admin.username || 'postgres'] });
}

export type TestDatabase = {
  /** Where the services' pool connects: Postgres, or the run's PgBouncer in a `*-pgbouncer` project. */
  url: string;
  /** Postgres itself, always (a session: LISTEN, session locks, the test's own checks). */
  directUrl: string;
  database: Database;
  drop: () => Promise<void>;
};

/**
 * A fresh, migrated database for one test file. In a run with a PgBouncer (TEST_DATABASE_POOLER)
 * its pool goes through the pooler in transaction mode, with the request bounds a service's pool
 * has (the pooler's connect_query carries them) and LISTEN on the direct URL.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin((sql) => sql.unsafe(`create database ${name} template ${inject('templateDatabase')}`));
  const directUrl = urlFor(name);
  const pgbouncerPort = inject('pgbouncerPort');
  const url = pgbouncerPort ? pooledUrlFor(name, pgbouncerPort) : directUrl;
  const database = pgbouncerPort
    ? createDatabase({ url, max: 5, poolMode: 'transaction', directUrl, statementBounds: STATEMENT_BOUNDS.request })
    : createDatabase({ url, max: 5 });
  return {
    url,
    directUrl,
    database,
    drop: async () => {
      // On a connection of its own: a test may have closed (or broken) its pool on purpose.
      const own = postgres(directUrl, { max: 1, onnotice: () => {} });
      try {
        recordRunSecrets({ label: name, values: await secretsHeldBy(own) });
      } finally {
        await own.end({ timeout: 5 });
      }
      await database.close();
      await withAdmin((sql) => sql.unsafe(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * The values a test database holds that no log line may ever show and no pattern recognises:
 * draw seeds (a seed known before the draw names the winners), API key hashes, and the wallet
 * addresses users proved they hold (lowercased; the scan compares any letter case). (Keys, their
 * prefixes and webhook secrets have prefixes of their own that the run's scan matches.)
 */
export async function secretsHeldBy(sql: postgres.Sql): Promise<string[]> {
  const rows = await sql<{ value: string }[]>`
    select draw_seed as value from raffles where draw_seed is not null
    union all select key_hash from api_keys
    union all select lower(address) from user_wallets where verified_by in ('siwe', 'erc1271')`;
  return rows.map((row) => row.value);
}
