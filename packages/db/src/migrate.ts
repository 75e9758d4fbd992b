import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { isDatabaseTimeout } from './connection-errors.js';
import { STATEMENT_BOUNDS } from './statement-bounds.js';

/** The committed drizzle-kit migrations, shipped beside `src/` and `dist/`. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../migrations', import.meta.url));

/** Attempts before a migration that never gets its locks fails: about a minute and a half of a busy table. */
const MAX_ATTEMPTS = 20;
const FIRST_RETRY_DELAY_MS = 250;
const MAX_RETRY_DELAY_MS = 5000;

export type MigrationOptions = {
  /** Told of each attempt that gave up waiting for a lock, before the next one. */
  onLockTimeout?: (attempt: number, retryInMs: number) => void;
};

/**
 * Applies every pending migration; an advisory lock makes concurrent runs (several replicas,
 * parallel tests) wait their turn. A migration waits for a table's lock at most
 * STATEMENT_BOUNDS.migration's lock wait: while it waits, every request that touches the table
 * queues behind it. Past that it rolls back (drizzle applies the pending migrations in one
 * transaction) and is tried again after a jittered, growing delay, as many as MAX_ATTEMPTS times.
 */
export async function runMigrations(url: string, options: MigrationOptions = {}): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    // Waits as long as another run takes: the advisory lock blocks no request.
    await sql`select pg_advisory_lock(72707170)`;
    const bounds = STATEMENT_BOUNDS.migration;
    await sql`select set_config('statement_timeout', ${String(bounds.statementTimeoutMs)}, false), set_config('lock_timeout', ${String(bounds.lockTimeoutMs)}, false)`;
    for (let attempt = 1; ; attempt++) {
      try {
        await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });
        return;
      } catch (error) {
        if (!isDatabaseTimeout(error) || attempt === MAX_ATTEMPTS) throw error;
        const retryInMs = Math.min(FIRST_RETRY_DELAY_MS * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS) * (0.5 + Math.random() / 2);
        options.onLockTimeout?.(attempt, retryInMs);
        await sleep(retryInMs);
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
