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
