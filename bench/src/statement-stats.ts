import postgres from 'postgres';
import type { StatementRow } from './statement-summary.js';

/**
 * `pg_stat_statements` of one database, reset before a scenario and read after it, through a
 * connection to the server's admin database: the probe's own statements are never counted.
 */
export type StatementStats =
  | { available: true; reset: () => Promise<void>; read: () => Promise<StatementRow[]>; close: () => Promise<void> }
  | { available: false; reason: string; close: () => Promise<void> };

/** What to do when the server does not load the extension: one line, said once per run. */
export const HOW_TO_ENABLE =
  "run with --stats-postgres (the benchmark starts its own Postgres with it), or set shared_preload_libraries = 'pg_stat_statements' and pg_stat_statements.track = all in that server's postgresql.conf and restart it";

export async function openStatementStats(adminUrl: string, databaseName: string): Promise<StatementStats> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const close = () => sql.end({ timeout: 5 });
  const [row] = await sql<{ preload: string }[]>`select current_setting('shared_preload_libraries') as preload`;
  if (!row!.preload.split(',').some((name) => name.trim() === 'pg_stat_statements')) {
    return { available: false, reason: 'pg_stat_statements is not in shared_preload_libraries', close };
  }
  try {
    // The view lives where the extension is created: the admin database, never the dataset's.
    await sql`create extension if not exists pg_stat_statements`;
  } catch (error) {
    return { available: false, reason: `create extension pg_stat_statements failed: ${(error as Error).message}`, close };
  }
  return {
    available: true,
    close,
    async reset() {
      // Only this database's entries: on a shared server, other databases keep theirs.
      await sql`select pg_stat_statements_reset(0, (select oid from pg_database where datname = ${databaseName}), 0)`;
    },
    async read() {
      return sql<StatementRow[]>`
        select s.queryid::text as queryid, s.query, s.toplevel, s.calls::float8 as calls,
               s.total_exec_time as "totalMs", s.rows::float8 as rows
        from pg_stat_statements s join pg_database d on d.oid = s.dbid
        where d.datname = ${databaseName}`;
    },
  };
}
