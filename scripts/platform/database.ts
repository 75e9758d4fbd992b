import { createDatabase } from './db.js';

const DUPLICATE_DATABASE = '42P04';

/** Creates database `name` on the server behind `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const { sql, close } = createDatabase({ url: adminUrl, max: 1, applicationName: 'start-platform' });
  try {
    const existing = await sql`select 1 from pg_database where datname = ${name}`;
    if (existing.length > 0) return;
    await sql`create database ${sql(name)}`.catch((error: { code?: string }) => {
      // Another start command created it between our check and our create.
      if (error.code !== DUPLICATE_DATABASE) throw error;
    });
  } finally {
    await close();
  }
}

/**
 * Creates the database a DATABASE_URL names, when it does not exist yet and the URL's role may
 * (the compose demo's `raffle_demo`, say). Asked through the server's `postgres` database; a server
 * that refuses that connection is left as it is: connecting to the named database then says why.
 */
export async function ensureDatabaseOfUrl(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name || name === 'postgres') return;
  url.pathname = '/postgres';
  await ensureDatabase(url.toString(), name).catch(() => undefined);
}
