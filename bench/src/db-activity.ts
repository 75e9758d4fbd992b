import type { Sql } from '@raffle/db';

export type DbActivity = {
  xactCommit: number;
  xactRollback: number;
  tupReturned: number;
  tupFetched: number;
  blksHit: number;
  blksRead: number;
};

/**
 * PostgreSQL 15 backends publish their counters at most once a second while busy, and up to
 * 10 s (PGSTAT_IDLE_INTERVAL) after going idle. Waiting this long before and after a run makes
 * its delta exact: nothing from an earlier run arrives late, nothing from this one is missed.
 */
export const STATS_SETTLE_MS = 11_500;

/**
 * Counters of one database, read through a connection to another one (the admin database),
 * so the probe itself adds nothing to what it measures.
 */
export async function readDbActivity(adminSql: Sql, databaseName: string): Promise<DbActivity> {
  const [row] = await adminSql<DbActivity[]>`
    select xact_commit::float8 as "xactCommit", xact_rollback::float8 as "xactRollback",
           tup_returned::float8 as "tupReturned", tup_fetched::float8 as "tupFetched",
           blks_hit::float8 as "blksHit", blks_read::float8 as "blksRead"
    from pg_stat_database where datname = ${databaseName}`;
  if (!row) throw new Error(`no statistics for database ${databaseName}`);
  return row;
}

export function activityDelta(before: DbActivity, after: DbActivity): DbActivity {
  const delta = {} as DbActivity;
  for (const key of Object.keys(before) as (keyof DbActivity)[]) delta[key] = after[key] - before[key];
  return delta;
}
