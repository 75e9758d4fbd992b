import postgres from 'postgres';
import { isConnectionError } from './connection-errors.js';
import { pingDatabase } from './queries/database-ping.js';

/** A pooler that can serve answers within this; one that queues the probe is busy, not refusing. */
const PROBE_TIMEOUT_MS = 1000;

/**
 * Whether the pooler at `url` refuses a fresh client's statement outright: `select 1` on a new
 * connection of its own (one the pool's queued statements are not pipelined on) fails with a
 * connection error. PgBouncer does that while the server cannot be reached: once a login to
 * Postgres has failed and the pool has no server connection left, every statement that finds no
 * server is answered by closing its client ("server login has been failing", `server_login_retry`)
 * instead of being queued. Measured on 1.18: a fast stop or a `kill -9` of Postgres, and the
 * probe is refused within 10 ms. A probe the pooler queues (its servers are busy, or it is still
 * trying to log in) or that does not connect in time says nothing: false.
 */
export async function poolerRefuses(url: string, options: { applicationName: string; connectTimeoutMs: number }): Promise<boolean> {
  const probe = postgres(url, {
    max: 1,
    prepare: false,
    // The type lookup would be a statement of its own, queued or refused like the probe.
    fetch_types: false,
    onnotice: () => {},
    connect_timeout: options.connectTimeoutMs / 1000,
    connection: { application_name: `${options.applicationName}-probe`.slice(0, 63) },
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), PROBE_TIMEOUT_MS).unref();
  });
  try {
    const outcome = await Promise.race([pingDatabase(probe).then(() => 'answered' as const, (error: unknown) => error), timedOut]);
    if (outcome === 'answered' || outcome === 'timeout') return false;
    return isConnectionError(outcome) && (outcome as { code?: string }).code !== 'CONNECT_TIMEOUT';
  } finally {
    clearTimeout(timer);
    void probe.end({ timeout: 0 }).catch(() => undefined);
  }
}
