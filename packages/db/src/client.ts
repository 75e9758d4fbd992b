import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { boundConnectionWaits } from './connection-wait-deadline.js';
import { wakeRelayAfterCommits } from './outbox-wake.js';
import { poolerSessionDefaultsProblem, type PoolMode } from './pool-mode.js';
import { poolerRefuses } from './pooler-refusal-probe.js';
import { poolerSockets } from './pooler-sockets.js';
import { releaseQueriesStuckInPooler } from './pooler-stall-release.js';
import { pingDatabase } from './queries/database-ping.js';
import * as schema from './schema/index.js';
import { sessionSettingsOf, type StatementBounds } from './statement-bounds.js';

export type Schema = typeof schema;
export type Db = PostgresJsDatabase<Schema>;
/** A drizzle transaction; query functions accept either a `Db` or a `Tx`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;
export type Sql = postgres.Sql;
/** A postgres.js transaction (`sql.begin`); hot-path statements accept either a `Sql` or one. */
export type SqlTx = postgres.TransactionSql;
export type SqlOrTx = Sql | SqlTx;

export type DatabaseOptions = {
  url: string;
  /** Pool size; the data plane's hot paths want a few connections per core. */
  max?: number;
  applicationName?: string;
  /** One connection attempt (TCP, TLS, startup) gives up after this long; default 3000. */
  connectTimeoutMs?: number;
  /**
   * A query that has not got a connection after this long fails with a connection-class error
   * (`CONNECT_TIMEOUT`, see `isConnectionError`) instead of waiting out an outage; default 500 (an outage is answered well within a second).
   * Applies while the pool completes nothing and its connections fail (the database is unreachable).
   */
  connectionWaitTimeoutMs?: number;
  /** The same bound for a pool that is completing queries but saturated (a drop); default 15000. */
  busyPoolWaitTimeoutMs?: number;
  /**
   * Every statement's bound unless its transaction sets another (`boundTransaction`): the
   * services pass STATEMENT_BOUNDS.request. Unbounded when absent (seeding, benchmarks).
   */
  statementBounds?: StatementBounds;
  /**
   * Called with every statement as it is sent (postgres.js's `debug`): the tests that count a
   * request's statements watch through it. Never set by the services.
   */
  onStatement?: (query: string, parameters: readonly unknown[]) => void;
  /**
   * What `url` points at (pool-mode.ts); default `session`. In `transaction` (PgBouncer's
   * transaction mode) statements are not prepared, only `application_name` goes as a startup
   * parameter, and `statementBounds` and `jit = off` must come from the pooler's server sessions
   * (`poolerConnectQuery`; `sessionDefaultsProblem` checks them).
   */
  poolMode?: PoolMode;
  /**
   * A session connection straight to the primary, bypassing a transaction-mode pooler: where
   * `LISTEN` runs (`listenSql`). Not used in session mode, where the pool itself can listen.
   */
  directUrl?: string;
  /**
   * In transaction mode, called when the pool's statements queued in the pooler were failed
   * because the pooler cannot reach the server (pooler-stall-release.ts): the services log it.
   */
  onPoolerRelease?: (unansweredMs: number) => void;
};

/**
 * The postgres.js transaction under a drizzle one (or the pool under a drizzle database).
 * Statements that must leave as one pipeline (sent in order without waiting for each other's
 * results), and the hottest writes, are written against it: drizzle sends each statement only when
 * it is awaited, and its builder costs CPU. It reads a drizzle internal, so a test pins it
 * (packages/db/test/raw-transaction.test.ts). Parameters go as drizzle would send them: dates as
 * ISO strings (drizzle turns postgres.js's date parsing and serialising off), JSON as text.
 */
export function rawTransactionOf(tx: DbOrTx): SqlTx {
  const client = (tx as unknown as { session?: { client?: SqlTx } }).session?.client;
  if (typeof client !== 'function') throw new Error('drizzle transaction without a postgres.js client: has drizzle-orm changed its session?');
  return client;
}

export type Database = {
  /** postgres.js: used directly by hot read paths (prepared statements in session mode, text columns only). */
  sql: Sql;
  /** drizzle over the same pool: used by writes and everything that is not hot. */
  db: Db;
  close: () => Promise<void>;
  /**
   * The pool now: queries waiting for a connection, queries running on one (those sent through
   * the pool; a transaction's statements run on the connection it holds), and its size.
   */
  poolStats: () => { waiting: number; running: number; size: number };
  /**
   * `select 1` on a connection of its own, outside the pool: whether the database answers this
   * instance, whatever the pool's connections are waiting for (a locked table holds every one of
   * them). Rejects after `PING_TIMEOUT_MS` at most once connected.
   */
  ping: () => Promise<void>;
  poolMode: PoolMode;
  /**
   * Where `LISTEN` may run: the pool in session mode (postgres.js listens on a connection of its
   * own); a connection to `directUrl` in transaction mode; null in transaction mode without one,
   * where a listener would hear nothing (its server connection goes back to the pooler after each
   * statement) and callers poll instead.
   */
  listenSql: Sql | null;
  /**
   * In transaction mode with `statementBounds`, what a pooled session's defaults lack of them and
   * of `jit = off` (a message for the operator), or null when they hold; always null otherwise.
   */
  sessionDefaultsProblem: () => Promise<string | null>;
};

/** A refused connection fails at once; this bounds the silent kind (a dropped route, a full backlog). */
const DEFAULT_CONNECT_TIMEOUT_MS = 3000;
const DEFAULT_CONNECTION_WAIT_TIMEOUT_MS = 500;
const DEFAULT_BUSY_POOL_WAIT_TIMEOUT_MS = 15_000;
/** The readiness probe's own bound on its ping (plugins/health.ts in service-kit waits no longer either). */
const PING_TIMEOUT_MS = 1000;

/**
 * Seconds before a connection retries after a failed attempt. postgres.js's default grows toward
 * 20 s, so after an outage a service would stay down long after the database was back; a short,
 * jittered, capped delay finds the database again within half a second at a cost of a few refused
 * connection attempts a second per pooled connection while it is down.
 */
function reconnectDelaySeconds(failedAttempts: number): number {
  return Math.min(0.025 * 2 ** failedAttempts, 0.5) * (0.5 + Math.random() / 2);
}

export function createDatabase(options: DatabaseOptions): Database {
  const applicationName = options.applicationName ?? 'raffle';
  const max = options.max ?? 10;
  const poolMode = options.poolMode ?? 'session';
  const pooledByTransaction = poolMode === 'transaction';
  // Behind a transaction pooler the pool's sockets are kept, to take back statements it queues for a server that is gone.
  const sockets = pooledByTransaction ? poolerSockets() : null;
  const pool = openPool(options, {
    ...(sockets ? { socket: sockets.connect } : {}),
    max,
    // A transaction pooler runs each statement on whichever server connection is free: one that
    // never saw the Parse of a named statement (PgBouncer 1.18 does not track them).
    prepare: !pooledByTransaction,
    // JIT compiles a statement whose estimated cost is high, at 20–30 ms of CPU per execution: far
    // more than our statements take to run. An estimate can be high for a branch that never runs
    // (the entry admission's collection count is planned for every raffle), and JIT then ran on
    // every entry (issue 13). Sessions run without it. Behind a transaction pooler the pooler's
    // server sessions carry these settings (application_name is one it passes on).
    connection: pooledByTransaction
      ? { application_name: applicationName }
      : { application_name: applicationName, jit: 'off', ...(options.statementBounds ? sessionSettingsOf(options.statementBounds) : {}) },
    ...(options.onStatement ? { debug: statementObserver(options.onStatement) } : {}),
  });
  const connectionWaitTimeoutMs = options.connectionWaitTimeoutMs ?? DEFAULT_CONNECTION_WAIT_TIMEOUT_MS;
  const { sql, queryCounts, unansweredForMs } = boundConnectionWaits(pool, connectionWaitTimeoutMs, options.busyPoolWaitTimeoutMs ?? DEFAULT_BUSY_POOL_WAIT_TIMEOUT_MS);
  // An outage behind the pooler is answered as fast as without it (issue 34, decision 0041).
  const stopStallRelease = sockets
    ? releaseQueriesStuckInPooler({
        unansweredForMs,
        timeoutMs: connectionWaitTimeoutMs,
        poolerRefuses: () => poolerRefuses(options.url, { applicationName, connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS }),
        release: sockets.closeAll,
        onRelease: options.onPoolerRelease,
      })
    : () => {};
  const db = drizzle(sql, { schema });
  wakeRelayAfterCommits(db, sql);
  // Opened on the first ping: only the services' readiness probe pings.
  let pingConnection: Sql | null = null;
  let closed = false;
  const ping = async () => {
    // As the pool's queries do once it is ended; a ping must not open a connection after close.
    if (closed) throw Object.assign(new Error('the database was closed'), { code: 'CONNECTION_ENDED' });
    pingConnection ??= openPingConnection(options, applicationName, pooledByTransaction);
    await pingDatabase(pingConnection);
  };
  const listenSql = pooledByTransaction ? (options.directUrl ? openListenConnection(options.directUrl, options, applicationName) : null) : sql;
  const close = async () => {
    closed = true;
    stopStallRelease();
    await Promise.all([sql.end({ timeout: 5 }), pingConnection?.end({ timeout: 5 }), listenSql !== sql ? listenSql?.end({ timeout: 5 }) : undefined]);
  };
  const sessionDefaultsProblem = async () =>
    pooledByTransaction && options.statementBounds ? poolerSessionDefaultsProblem(sql, options.statementBounds) : null;
  return { sql, db, close, poolStats: () => ({ ...queryCounts(), size: max }), ping, poolMode, listenSql, sessionDefaultsProblem };
}

const statementObserver =
  (onStatement: NonNullable<DatabaseOptions['onStatement']>) =>
  (_connection: number, query: string, parameters: unknown[]) =>
    onStatement(query, parameters);

/** A postgres.js pool with what every connection of ours shares: no notices, the connect timeout, the short reconnect delay. */
function openPool(options: DatabaseOptions, settings: postgres.Options<Record<string, postgres.PostgresType>>, url = options.url): Sql {
  return postgres(url, {
    onnotice: () => {},
    connect_timeout: (options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS) / 1000,
    backoff: reconnectDelaySeconds,
    ...settings,
  });
}

/**
 * One connection for the readiness ping, so a pool whose connections all wait on a lock (or are
 * all busy) does not read as a database that is gone; it costs one connection per instance.
 * While the database is unreachable its pings fail with the driver's connection errors, as the
 * pool's queries do; a ping never waits behind a statement of the pool's.
 */
function openPingConnection(options: DatabaseOptions, applicationName: string, pooledByTransaction: boolean): Sql {
  const application_name = `${applicationName}-ping`.slice(0, 63);
  // Behind a transaction pooler `select 1` runs under the pooler's session defaults: it takes no
  // lock and never runs long, and the readiness check bounds its wait for an answer itself.
  const connection = openPool(options, {
    max: 1,
    ...(pooledByTransaction
      ? { prepare: false, connection: { application_name } }
      : { connection: { application_name, statement_timeout: PING_TIMEOUT_MS, lock_timeout: PING_TIMEOUT_MS } }),
  });
  // Probes that keep coming while the database is out of reach must not queue up behind its reconnects.
  return boundConnectionWaits(connection, options.connectionWaitTimeoutMs ?? DEFAULT_CONNECTION_WAIT_TIMEOUT_MS, PING_TIMEOUT_MS).sql;
}

/**
 * The session connection `LISTEN` needs when the pool goes through a transaction pooler: straight
 * to the primary, one connection per instance, with the pool's short reconnect delay.
 */
function openListenConnection(directUrl: string, options: DatabaseOptions, applicationName: string): Sql {
  return openPool(options, { max: 1, connection: { application_name: `${applicationName}-listen`.slice(0, 63) } }, directUrl);
}
