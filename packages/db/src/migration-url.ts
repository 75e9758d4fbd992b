import type { PoolMode } from './pool-mode.js';

/**
 * The URL the migrations run on. They hold a session advisory lock for as long as they take
 * (concurrent runs wait their turn) and set their bounds for the session (migrate.ts): neither
 * holds behind a transaction pooler, where each statement may run on another server connection
 * and a session `SET` would stay behind for other clients. So in transaction mode they run on
 * DATABASE_DIRECT_URL, and without it they refuse rather than run unserialised (docs/decisions/0037).
 */
export function migrationUrlOf(env: Record<string, string | undefined>): string {
  const url = env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: it names the Postgres database to migrate.');
  const mode = (env.DATABASE_POOL_MODE || 'session') as PoolMode;
  if (mode === 'session') return url;
  if (mode !== 'transaction') throw new Error(`DATABASE_POOL_MODE must be session or transaction, not ${JSON.stringify(env.DATABASE_POOL_MODE)}.`);
  if (!env.DATABASE_DIRECT_URL) {
    throw new Error(
      'DATABASE_POOL_MODE=transaction: DATABASE_URL goes through a transaction pooler, where the migrations cannot hold their advisory lock. Set DATABASE_DIRECT_URL to a session connection straight to the primary.',
    );
  }
  return env.DATABASE_DIRECT_URL;
}
