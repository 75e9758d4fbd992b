import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Db = PostgresJsDatabase<Schema>;
/** A drizzle transaction; query functions accept either a `Db` or a `Tx`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;
export type Sql = postgres.Sql;

export type DatabaseOptions = {
  url: string;
  /** Pool size; the data plane's hot paths want a few connections per core. */
  max?: number;
  applicationName?: string;
};

export type Database = {
  /** postgres.js: used directly by hot read paths (prepared statements, text columns only). */
  sql: Sql;
  /** drizzle over the same pool: used by writes and everything that is not hot. */
  db: Db;
  close: () => Promise<void>;
};

export function createDatabase(options: DatabaseOptions): Database {
  const sql = postgres(options.url, {
    max: options.max ?? 10,
    prepare: true,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'raffle' },
  });
  const db = drizzle(sql, { schema });
  return { sql, db, close: () => sql.end({ timeout: 5 }) };
}
