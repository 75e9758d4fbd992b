import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { poolerConnectQuery, STATEMENT_BOUNDS } from '@raffle/db';
import { privateServerProcess } from './private-server-process.js';

const PGBOUNCER = process.env.PGBOUNCER_BIN ?? 'pgbouncer';

export type PrivatePgBouncerOptions = {
  /** The Postgres it pools for; every database name a client asks for is passed on to it. */
  targetHost: string;
  targetPort: number;
  poolMode: 'transaction' | 'session';
  /** Server connections per database and user; PgBouncer's default is 20. */
  defaultPoolSize?: number;
  /** Run on every server connection it opens; by default the services' session defaults (`poolerConnectQuery`). */
  connectQuery?: string;
  /** Users it lets in (trust, loopback only); by default postgres. */
  users?: readonly string[];
  /** The password its users log in to the target with (a private Postgres has one); none by default (trust). Clients still need none. */
  targetPassword?: string;
};

export type PrivatePgBouncer = {
  port: number;
  /** A client URL for `database` through the pooler, as `user` (postgres by default). */
  url(database: string, user?: string): string;
  destroy(): Promise<void>;
};

/**
 * A PgBouncer of one test's (or one run's) own on a free loopback port, in front of `targetHost`:
 * `targetPort`. Its server connections carry `connectQuery`, as a deployment's connect_query would
 * (docs/decisions/0037). PgBouncer refuses to run as root, so under root it drops to the
 * postgres user (`-u`), which must be able to read its directory.
 */
export async function startPrivatePgBouncer(options: PrivatePgBouncerOptions): Promise<PrivatePgBouncer> {
  const dir = await mkdtemp(join(tmpdir(), 'raffle-pgbouncer-'));
  await chmod(dir, 0o755);
  const users = options.users ?? ['postgres'];
  const configFile = join(dir, 'pgbouncer.ini');
  const authFile = join(dir, 'users.txt');
  await writeFile(authFile, users.map((user) => `"${user}" "${options.targetPassword ?? ''}"\n`).join(''), { mode: 0o644 });
  const server = await privateServerProcess('pgbouncer', PGBOUNCER, () => [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), configFile]);
  const connectQuery = (options.connectQuery ?? poolerConnectQuery(STATEMENT_BOUNDS.request)).replaceAll("'", "''");
  const config = [
    '[databases]',
    `* = host=${options.targetHost} port=${options.targetPort} connect_query='${connectQuery}'`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${server.port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${authFile}`,
    `pool_mode = ${options.poolMode}`,
    `default_pool_size = ${options.defaultPoolSize ?? 20}`,
    'max_client_conn = 2000',
    // Seconds before a failed server login is tried again (15 by default): a test's outage is short.
    'server_login_retry = 1',
    // What a deployment should set too (decision 0037): a statement queued for a server gives up,
    // its client connection closed (a connection error, answered 503), as the pool's busy wait would.
    'query_wait_timeout = 15',
    // The pools of test databases that were dropped go soon after.
    'autodb_idle_timeout = 30',
    'log_connections = 0',
    'log_disconnections = 0',
    'logfile =',
    'pidfile =',
    '',
  ].join('\n');
  await writeFile(configFile, config, { mode: 0o644 });

  await server.start();
  return {
    port: server.port,
    url: (database, user = 'postgres') => `postgres://${user}@127.0.0.1:${server.port}/${database}`,
    async destroy() {
      await server.stop('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
