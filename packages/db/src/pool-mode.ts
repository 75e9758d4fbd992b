import type postgres from 'postgres';
import type { StatementBounds } from './statement-bounds.js';

/**
 * What DATABASE_URL points at (docs/decisions/0037). `session`: Postgres itself, or a pooler that
 * gives each client connection one server connection for its lifetime. `transaction`: a pooler
 * (PgBouncer `pool_mode = transaction`) that lends a server connection for one transaction only,
 * so nothing a connection remembers between transactions is ours: no prepared statements, no
 * startup parameters it does not know, no session `SET`, no session advisory lock, no `LISTEN`.
 */
export type PoolMode = 'session' | 'transaction';

export const POOL_MODES = ['session', 'transaction'] as const satisfies readonly PoolMode[];

/**
 * The session defaults a transaction-mode pooler must give every server connection, since the
 * pool cannot send them as startup parameters: PgBouncer 1.18 refuses unknown ones, and with
 * `ignore_startup_parameters` drops them silently. For PgBouncer this is the database entry's
 * `connect_query` (run once per server connection); `ALTER ROLE … SET` does the same for any pooler.
 */
export function poolerConnectQuery(bounds: StatementBounds): string {
  return `set jit = off; set statement_timeout = ${bounds.statementTimeoutMs}; set lock_timeout = ${bounds.lockTimeoutMs}`;
}

/**
 * Reads a pooled session's defaults and says what differs from `bounds` and `jit = off`, or null
 * when they hold. A service in transaction mode refuses to start on a difference: its statements
 * would otherwise run unbounded (or JIT-compiled) without anyone seeing it.
 */
export async function poolerSessionDefaultsProblem(sql: postgres.Sql, bounds: StatementBounds): Promise<string | null> {
  // pg_settings gives milliseconds as plain numbers whatever unit the setting was written in.
  const rows = await sql<{ name: string; setting: string }[]>`
    select name, setting from pg_settings where name in ('jit', 'statement_timeout', 'lock_timeout')`;
  const actual = new Map(rows.map((row) => [row.name, row.setting]));
  const expected = new Map([
    ['jit', 'off'],
    ['statement_timeout', String(bounds.statementTimeoutMs)],
    ['lock_timeout', String(bounds.lockTimeoutMs)],
  ]);
  const differences = [...expected].filter(([name, value]) => actual.get(name) !== value).map(([name, value]) => `${name} is ${actual.get(name) ?? 'unknown'}, not ${value}`);
  if (differences.length === 0) return null;
  return (
    `DATABASE_POOL_MODE=transaction, but the pooler's server sessions do not carry the statement bounds (${differences.join('; ')}). ` +
    `Give the PgBouncer database entry connect_query='${poolerConnectQuery(bounds)}' (or ALTER ROLE … SET the same settings), then reconnect its servers.`
  );
}
