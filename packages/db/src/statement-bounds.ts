import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

/**
 * How long one statement may run (`statement_timeout`, lock waits included) and how long it may
 * wait for any one lock (`lock_timeout`: a table lock, or a row another transaction holds).
 * Past either, Postgres cancels the statement (57014 or 55P03) and its transaction rolls back;
 * `isDatabaseTimeout` recognises both and the services answer 503 with Retry-After.
 * Zero sets no bound of ours (the server's or the role's setting applies, by default none).
 */
export type StatementBounds = { statementTimeoutMs: number; lockTimeoutMs: number };

/**
 * The bound of each kind of work (docs/decisions/0018). Requests, reads and entering alike, run
 * under the pool's session default; longer kinds raise it for their own transaction only.
 */
export const STATEMENT_BOUNDS = {
  /**
   * Every request's statements unless their transaction says otherwise: reads and entering. A
   * read takes no row locks, so its lock wait only ever meets a table lock (DDL, `LOCK TABLE`);
   * entering waits for the raffle's row behind other entrants, a queue that drains at 200+ a
   * second (decision 0016), so 1 s is a queue of hundreds, more than every pool's connections.
   * Short, because a request may meet a locked table more than once (its key, its Idempotency-Key,
   * its transaction, each behind connections that wait the same), and a waiting statement holds a
   * pooled connection that routes which never touch the table need. A statement of ours runs in
   * milliseconds; 5 s is room for a loaded machine, not for a plan gone wrong.
   */
  request: { statementTimeoutMs: 5000, lockTimeoutMs: 1000 },
  /**
   * Publishing, opening, closing, finalizing, cancelling: they rewrite a raffle's wins and
   * rendered JSON, and wait for its row behind entrants and a draw of the same raffle.
   */
  transition: { statementTimeoutMs: 15_000, lockTimeoutMs: 5000 },
  /** The draw ranks and snapshots every entry: a million entries take 10–15 s in all (docs/runbook.md). */
  draw: { statementTimeoutMs: 60_000, lockTimeoutMs: 5000 },
  /**
   * A migration may rewrite a table for as long as it takes; what it must not do is wait for a
   * lock with every request queued behind it. It gives up sooner than a request would, so the
   * requests queued behind it never run out of their own lock wait, and is retried (migrate.ts).
   */
  migration: { statementTimeoutMs: 0, lockTimeoutMs: 500 },
} as const satisfies Record<string, StatementBounds>;

/** The bounds as session settings, for a pool's connection options (startup parameters). */
export function sessionSettingsOf(bounds: StatementBounds): { statement_timeout: number; lock_timeout: number } {
  return { statement_timeout: bounds.statementTimeoutMs, lock_timeout: bounds.lockTimeoutMs };
}

/**
 * Sets `bounds` for the rest of the transaction `tx` (`SET LOCAL`: the pooled connection's own
 * settings come back at commit or rollback). The first statement of a transaction that is
 * allowed longer than a request.
 */
export async function boundTransaction(tx: DbOrTx, bounds: StatementBounds): Promise<void> {
  await tx.execute(
    sql`select set_config('statement_timeout', ${String(bounds.statementTimeoutMs)}, true), set_config('lock_timeout', ${String(bounds.lockTimeoutMs)}, true)`,
  );
}
