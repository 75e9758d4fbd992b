import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdir, rm } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { killOnExit } from './children.js';
import { freePort } from './servers.js';

/**
 * A Postgres of the benchmark's own with `pg_stat_statements` loaded, for `--stats-postgres`.
 * The extension needs `shared_preload_libraries`, a restart-only setting, and the machine's
 * Postgres is shared (other work and tests use it), so the benchmark never reconfigures that one:
 * it starts this one with the machine's own binaries (the same version), copies the settings that
 * decide what a write costs from the machine's server, and stops it when the run ends.
 *
 * The data directory is kept between runs (seeding the dataset takes minutes; `--reseed` redoes
 * it), and only ever runs while a benchmark does. As root, Postgres (which refuses to run as
 * root) runs as the OS user `postgres`, which owns the directory.
 */
export type StatsPostgres = {
  /** `postgres://postgres@127.0.0.1:<port>` (trust on loopback), without a database. */
  url: string;
  pid: number;
  version: string;
  /** The machine server's settings this one was started with, by name. */
  copiedSettings: Record<string, string>;
  stop: () => Promise<void>;
};

export type StatsPostgresOptions = {
  dataDir: string;
  /** A server whose settings to copy (the machine's, `--postgres-url`); its admin database URL. */
  referenceUrl?: string;
  log: (line: string) => void;
};

/**
 * What decides a write's cost (WAL, flushes, checkpoints, buffers) and a plan's, copied from the
 * machine's server so the figures compare: a cluster straight from initdb would differ (say, with
 * autovacuum on where the machine has it off).
 */
export const COPIED_SETTINGS = [
  'shared_buffers',
  'max_connections',
  'fsync',
  'synchronous_commit',
  'full_page_writes',
  'wal_level',
  'wal_buffers',
  'wal_compression',
  'wal_sync_method',
  'wal_writer_delay',
  'wal_writer_flush_after',
  'commit_delay',
  'commit_siblings',
  'max_wal_size',
  'min_wal_size',
  'checkpoint_timeout',
  'checkpoint_completion_target',
  'autovacuum',
  'work_mem',
  'maintenance_work_mem',
  'effective_cache_size',
  'random_page_cost',
  'jit',
  'max_parallel_workers_per_gather',
  'TimeZone',
] as const;

/** What pg_stat_statements itself needs; `track = all` also counts the statements inside functions. */
const STATEMENT_SETTINGS = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track': 'all',
  'pg_stat_statements.max': '10000',
  // A run's figures start from a reset; nothing is worth keeping across restarts.
  'pg_stat_statements.save': 'off',
};

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 60_000;

type Reference = { major: number | null; locale: string; checksums: boolean; settings: Record<string, string> };

async function readReference(url: string | undefined, log: (line: string) => void): Promise<Reference> {
  const fallback: Reference = { major: null, locale: 'C.UTF-8', checksums: false, settings: {} };
  if (!url) return fallback;
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const rows = await sql<{ name: string; setting: string }[]>`
      select name, setting from pg_settings
      where name = any(${[...COPIED_SETTINGS, 'server_version_num', 'lc_collate', 'data_checksums']})`;
    const all = Object.fromEntries(rows.map((r) => [r.name, r.setting]));
    const settings = Object.fromEntries(COPIED_SETTINGS.filter((name) => all[name] !== undefined).map((name) => [name, all[name]!]));
    return { major: Math.floor(Number(all.server_version_num) / 10000), locale: all.lc_collate ?? 'C.UTF-8', checksums: all.data_checksums === 'on', settings };
  } catch (error) {
    log(`stats Postgres: could not read the settings of ${url} (${(error as Error).message}); starting with Postgres' defaults`);
    return fallback;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The machine's binaries (Debian's layout): the reference server's major version, else the newest installed. */
export function postgresBinDir(major: number | null): string {
  const root = '/usr/lib/postgresql';
  const installed = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'postgres'))) : [];
  const chosen = major !== null && installed.includes(String(major)) ? String(major) : installed.sort((a, b) => Number(b) - Number(a))[0];
  if (!chosen) throw new Error(`--stats-postgres needs the PostgreSQL server binaries under ${root}/<version>/bin (apt-get install postgresql)`);
  return join(root, chosen, 'bin');
}

/** Who runs the server: ourselves, or the OS user `postgres` when we are root. */
function serverOwner(): { uid: number; gid: number } | null {
  if (userInfo().uid !== 0) return null;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('--stats-postgres runs as root, and Postgres refuses to: it needs the OS user "postgres" (the postgresql package creates it)');
  }
}

function run(binary: string, args: string[], owner: { uid: number; gid: number } | null, cwd: string): void {
  execFileSync(binary, args, { cwd, stdio: 'pipe', env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' }, ...(owner ?? {}) });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A postmaster an earlier run left running (killed mid-run) holds the directory: stop it first. */
async function stopLeftover(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  log(`stats Postgres: stopping the server an earlier run left on ${dataDir} (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`the Postgres left on ${dataDir} (pid ${pid}) did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function initialise(dataDir: string, binDir: string, major: string, reference: Reference, owner: { uid: number; gid: number } | null, log: (line: string) => void) {
  const versionFile = join(dataDir, 'PG_VERSION');
  if (existsSync(versionFile) && readFileSync(versionFile, 'utf8').trim() === major) return;
  // No PG_VERSION (an initdb that never finished) or another version's: nothing worth keeping.
  await rm(dataDir, { recursive: true, force: true });
  const parent = dirname(dataDir);
  await mkdir(parent, { recursive: true, mode: 0o755 });
  if (owner) await chown(parent, owner.uid, owner.gid);
  log(`stats Postgres: initdb ${dataDir}`);
  const args = ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', `--locale=${reference.locale}`, ...(reference.checksums ? ['--data-checksums'] : [])];
  try {
    run(join(binDir, 'initdb'), args, owner, parent);
  } catch (error) {
    const detail = error as { stderr?: Buffer; message: string };
    throw new Error(`initdb failed for ${dataDir}: ${detail.stderr?.toString() || detail.message}`);
  }
}

export async function startStatsPostgres(options: StatsPostgresOptions): Promise<StatsPostgres> {
  const { dataDir, log } = options;
  const reference = await readReference(options.referenceUrl, log);
  const binDir = postgresBinDir(reference.major);
  const major = dirname(binDir).split('/').pop()!;
  const owner = serverOwner();
  await stopLeftover(dataDir, log);
  await initialise(dataDir, binDir, major, reference, owner, log);

  const port = await freePort();
  const settings = {
    ...reference.settings,
    ...STATEMENT_SETTINGS,
    port: String(port),
    // Loopback TCP only: no Unix socket, whose default directory belongs to the machine's server.
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    logging_collector: 'off',
  };
  const child = killOnExit(
    spawn(join(binDir, 'postgres'), ['-D', dataDir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])], {
      cwd: dirname(dataDir),
      env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(owner ?? {}),
    }),
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `postgres://postgres@127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // SIGINT is a fast shutdown: sessions end, the server checkpoints and exits.
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the stats Postgres exited while starting:\n${output}`);
    const sql = postgres(`${url}/postgres`, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    const version = await sql<{ version: string }[]>`select current_setting('server_version') as version`.then(
      ([row]) => row!.version,
      () => null,
    );
    await sql.end({ timeout: 1 });
    if (version) return { url, pid: child.pid!, version, copiedSettings: reference.settings, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the stats Postgres did not accept connections on port ${port} within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
