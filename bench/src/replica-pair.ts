import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startPrivatePostgresPair } from '@raffle/service-kit/testing/faults';
import postgres from 'postgres';
import { parentPid } from './cpu.js';
import { postgresBinDir } from './stats-postgres.js';

/** One server of the pair, as the run measures it. */
export type PairServer = {
  /** `postgres://postgres@127.0.0.1:<port>`, without a database. */
  url: string;
  /** The postmaster: every process of this server is it or its child (CPU is counted over them). */
  postmasterPid: number;
};

export type ReplicaPair = {
  primary: PairServer;
  replica: PairServer;
  version: string;
  /** What putting the dataset on the pair took: the copy, then vacuum and checkpoint, then the replica's catch-up. */
  phases: Record<string, number>;
  /** Stops both servers and removes their data (a few GB). */
  stop: () => Promise<void>;
};

const CATCH_UP_TIMEOUT_MS = 300_000;
const OUTPUT_KEPT = 8000;

/**
 * A primary and a streaming replica of the run's own (the test kit's `startPrivatePostgresPair`:
 * `pg_basebackup -R` from the machine's binaries), holding a copy of the benchmark database:
 * `pg_dump | pg_restore` from the machine's server, which took 24 s where seeding the pair's
 * primary took 54 s (Nov 2026), and is the very dataset, with the same ids and keys, rather than
 * another one of the same shape. The replica receives it all through streaming replication, so it is
 * a physical copy of the server the data plane writes to.
 */
export async function startReplicaPair(source: { url: string; databaseName: string }, log: (line: string) => void): Promise<ReplicaPair> {
  const pair = await startPrivatePostgresPair();
  const primaryUrl = pair.primary.url().replace(/\/postgres$/, '');
  const replicaUrl = pair.replica.url().replace(/\/postgres$/, '');
  const primarySql = postgres(`${primaryUrl}/postgres`, { max: 1, onnotice: () => {} });
  let removeOnExit = () => {};
  try {
    const [server] = await primarySql<{ pid: number; version: string; dataDirectory: string }[]>`
      select pg_backend_pid() as pid, current_setting('server_version') as version, current_setting('data_directory') as "dataDirectory"`;
    const primary = { url: primaryUrl, postmasterPid: parentPid(server!.pid) };
    const replica = { url: replicaUrl, postmasterPid: await postmasterOf(`${replicaUrl}/postgres`) };
    // The pair's own stop is asynchronous; a run that ends early (watchdog, Ctrl-C, an error) still takes both servers and their data with it.
    removeOnExit = () => {
      for (const pid of [primary.postmasterPid, replica.postmasterPid]) {
        try {
          process.kill(pid, 'SIGQUIT');
        } catch {
          // Already gone.
        }
      }
      rmSync(dirname(server!.dataDirectory), { recursive: true, force: true });
    };
    process.once('exit', removeOnExit);

    const phases: Record<string, number> = {};
    const timed = async (name: string, work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      phases[name] = Math.round((performance.now() - started) / 100) / 10;
      log(`  ${name}: ${phases[name]} s`);
    };
    log(`replica pair: primary ${primaryUrl}, replica ${replicaUrl}; copying ${source.databaseName}`);
    await timed('pg_dump | pg_restore', async () => {
      await primarySql`create database ${primarySql(source.databaseName)}`;
      await copyDatabase(`${source.url}/${source.databaseName}`, `${primaryUrl}/${source.databaseName}`);
    });
    // A restored table has no statistics, visibility map or hint bits: the first reads would pay for them.
    await timed('vacuum analyze + checkpoint', async () => {
      const sql = postgres(`${primaryUrl}/${source.databaseName}`, { max: 1, onnotice: () => {} });
      try {
        await sql`vacuum (analyze)`;
        await sql`checkpoint`;
      } finally {
        await sql.end({ timeout: 5 });
      }
    });
    await timed('replica catch-up', () => pair.replica.caughtUp(CATCH_UP_TIMEOUT_MS));

    return {
      primary,
      replica,
      version: server!.version,
      phases,
      async stop() {
        process.removeListener('exit', removeOnExit);
        await pair.destroy();
      },
    };
  } catch (error) {
    process.removeListener('exit', removeOnExit);
    await pair.destroy();
    throw error;
  } finally {
    await primarySql.end({ timeout: 5 });
  }
}

async function postmasterOf(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    return parentPid(row!.pid);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** `pg_dump -Fc | pg_restore` with the machine's binaries; either failing fails the copy, with what it printed. */
async function copyDatabase(fromUrl: string, toUrl: string): Promise<void> {
  const bin = postgresBinDir(null);
  const env = { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' };
  // Uncompressed: both ends are on this machine, and compressing would cost the CPU the copy waits on.
  const dump = spawn(join(bin, 'pg_dump'), ['--format=custom', '--compress=0', fromUrl], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const restore = spawn(join(bin, 'pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${toUrl}`], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  dump.stdout.pipe(restore.stdin);
  // A restore that stopped early closes its end; pg_dump's own exit then says what happened.
  restore.stdin.on('error', () => {});
  const finished = (child: ChildProcess, name: string) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_KEPT)));
    return new Promise<void>((resolve, reject) => {
      child.once('error', (error) => reject(new Error(`cannot run ${name}: ${error.message}`)));
      child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${name} exited with ${code ?? signal}:\n${output}`))));
    });
  };
  const results = await Promise.allSettled([finished(dump, 'pg_dump'), finished(restore, 'pg_restore')]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    dump.kill('SIGKILL');
    restore.kill('SIGKILL');
    throw failed.reason;
  }
}
