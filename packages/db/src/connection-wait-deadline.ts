import { performance } from 'node:perf_hooks';
import type postgres from 'postgres';
import { isConnectionError } from './connection-errors.js';

/**
 * What this module reads and calls on a postgres.js query. These are the driver's own fields (not
 * in its public types): `handler` is the pool's entry point, `state` is set when the query is
 * written to a connection, `cancel()` takes a query that has not been written out of the queue.
 */
type PooledQuery = {
  handler: PoolEntry;
  state: object | null;
  cancelled: unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
  cancel(): unknown;
};
type PoolEntry = ((query: PooledQuery) => void) & { debug?: unknown };

/** Answered when no connection could be had in time; `CONNECT_TIMEOUT` so every caller treats it as an outage. */
export class ConnectionWaitTimeoutError extends Error {
  readonly code = 'CONNECT_TIMEOUT';

  constructor(readonly waitedMs: number) {
    super(`no database connection within ${Math.round(waitedMs)} ms`);
    this.name = 'ConnectionWaitTimeoutError';
  }
}

/** A connection failure this recent, with nothing completing, means the database is out of reach. */
const OUTAGE_EVIDENCE_MS = 10_000;

/** Expiry runs at most this often, so a busy pool re-arms one timer a few times a second. */
const BUSY_RECHECK_MS = 100;

/** One query's place in the queue; `query` is let go the moment it settles. */
type Waiting = { query: PooledQuery | null; enteredAt: number };

/**
 * Queries in the order they entered the pool, each with its entry time. FIFO order means the
 * sweep only ever looks at the head. A settled query is released at once, not when the sweep
 * passes it: a result of hundreds of rows kept for the length of a deadline would be promoted to
 * the old generation, and the garbage collector then costs every request.
 */
class WaitingQueries {
  private queue: Waiting[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  /** When a query of this pool last completed: a pool that completes queries is busy, not cut off. */
  private lastCompletedAt = -Infinity;
  /** When a query of this pool last failed for want of a connection: the evidence of an outage. */
  private lastConnectionErrorAt = -Infinity;
  /** Queries entered and not yet settled, whether waiting for a connection or sent on one. */
  private unsettled = 0;
  /** When the pool last heard from the database: a result, or an error the server sent. */
  private lastAnsweredAt = -Infinity;
  /** When `unsettled` last rose from zero. */
  private busySince = -Infinity;

  constructor(
    private readonly timeoutMs: number,
    private readonly busyTimeoutMs: number,
  ) {}

  /** Queries in the pool now: not yet on a connection (waiting), or on one (running). */
  counts(): { waiting: number; running: number } {
    let waiting = 0;
    let running = 0;
    for (let i = this.head; i < this.queue.length; i++) {
      const query = this.queue[i]!.query;
      if (query === null || query.cancelled) continue;
      if (query.state === null) waiting++;
      else running++;
    }
    return { waiting, running };
  }

  /**
   * How long queries have been unsettled with no answer from the database: 0 when none is
   * unsettled. Behind a transaction pooler a query is on a connection (to the pooler) at once, so
   * this, not the wait for a connection, is what an outage behind the pooler shows as.
   */
  unansweredForMs(now: number): number {
    return this.unsettled === 0 ? 0 : now - Math.max(this.lastAnsweredAt, this.busySince);
  }

  add(query: PooledQuery): void {
    const enteredAt = performance.now();
    const waiting: Waiting = { query, enteredAt };
    if (this.unsettled++ === 0) this.busySince = enteredAt;
    const { resolve, reject } = query;
    let settled = false;
    query.resolve = (value) => {
      // postgres.js keeps a query its closed connection failed as the connection's current one,
      // and "resolves" it with the empty result of the reconnected connection's first
      // ReadyForQuery: a pooler that logs clients in while Postgres is down would make that a
      // completion, the proof of a reachable database that stops the outage bound.
      if (settled) return resolve(value);
      settled = true;
      waiting.query = null;
      this.unsettled--;
      this.lastCompletedAt = this.lastAnsweredAt = performance.now();
      resolve(value);
    };
    query.reject = (error) => {
      if (settled) return reject(error);
      settled = true;
      waiting.query = null;
      this.unsettled--;
      // Our own deadline is not evidence: only the driver's failures to reach the database are.
      const ours = error instanceof ConnectionWaitTimeoutError;
      if (!ours && isConnectionError(error)) this.lastConnectionErrorAt = performance.now();
      // An error the server sent (a constraint, a timeout) is an answer: the database is there.
      else if (!ours) this.lastAnsweredAt = performance.now();
      reject(error);
    };
    this.queue.push(waiting);
    this.timer ??= this.arm(this.timeoutMs);
  }

  /**
   * A query that has waited `timeoutMs` is given up only in an outage: the pool has completed
   * nothing for as long and its connections are failing (refused, reset, timed out). A pool that
   * is completing queries is saturated (a drop's first second), and one that is still opening its
   * first connections on a loaded machine is slow; both serve their queue in order, and only a
   * wait past `busyTimeoutMs` is shed there.
   */
  private isDue(waitedMs: number, now: number): boolean {
    if (waitedMs >= this.busyTimeoutMs) return true;
    const stalled = now - this.lastCompletedAt >= this.timeoutMs;
    return waitedMs >= this.timeoutMs && stalled && this.isFailing(now);
  }

  /**
   * Connections are failing: one failed recently and nothing has completed since. A completion
   * after the failure is proof the database is reachable, so one late error (a connection that
   * only now reports the shutdown it saw during an outage that ended minutes ago, issue 22) does
   * not make a pool that is briefly saturated afterwards shed its queue as if cut off.
   */
  private isFailing(now: number): boolean {
    return this.lastConnectionErrorAt > this.lastCompletedAt && now - this.lastConnectionErrorAt < OUTAGE_EVIDENCE_MS;
  }

  private arm(delayMs: number): NodeJS.Timeout {
    // A deadline never keeps the process alive on its own.
    return setTimeout(this.expireDue, delayMs).unref();
  }

  private readonly expireDue = (): void => {
    this.timer = null;
    const now = performance.now();
    while (this.head < this.queue.length) {
      const waiting = this.queue[this.head]!;
      const query = waiting.query;
      // Settled, or on a connection: its fate is no longer the pool's queue.
      const gone = query === null || query.state !== null || Boolean(query.cancelled);
      const waitedMs = now - waiting.enteredAt;
      if (!gone && !this.isDue(waitedMs, now)) break;
      this.head++;
      if (!gone) {
        waiting.query = null;
        this.expire(query, waitedMs);
      }
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
      return;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    const nextDueMs = this.queue[this.head]!.enteredAt + this.timeoutMs - now;
    // A busy pool's head may already be past timeoutMs: look again shortly, not in a hot loop.
    this.timer = this.arm(Math.max(nextDueMs, BUSY_RECHECK_MS));
  };

  private expire(query: PooledQuery, waitedMs: number): void {
    // Reject first: cancel() would settle the query with 57014 ("canceling statement"), which reads
    // as a client's doing. Cancelling then takes it out of the pool's queue, so a write whose caller
    // was told it failed can never run later.
    query.reject(new ConnectionWaitTimeoutError(waitedMs));
    query.cancel();
  }
}

/**
 * Bounds how long a query waits for a connection. postgres.js queues a query until a connection
 * is free and, during an outage, serves that queue one query per connection attempt, the attempts
 * spaced by its reconnect backoff: under load the queue, and so the wait, grows without limit.
 * Here every query that enters the pool is watched, and one still not written to a connection
 * after `timeoutMs`, while the pool completed nothing for as long and its connections fail, is
 * rejected with `ConnectionWaitTimeoutError` and removed from the queue; on a pool that is busy or
 * still connecting, not cut off, only a wait past `busyTimeoutMs` is.
 * A query already on a connection is left alone: its fate is the connection's.
 *
 * Covers what enters through the returned `sql` (tagged queries) and `sql.unsafe` (drizzle, and
 * `sql.begin`'s own BEGIN); queries inside a transaction or a `reserve()`d connection run on a
 * connection they already hold. `sql.reserve()` itself is not bounded. `queryCounts` tells how
 * many of the watched queries wait for a connection and how many run on one (the metrics);
 * `unansweredForMs` how long they have gone without an answer (pooler-stall-release.ts).
 */
export function boundConnectionWaits(
  sql: postgres.Sql,
  timeoutMs: number,
  busyTimeoutMs: number,
): { sql: postgres.Sql; queryCounts: () => { waiting: number; running: number }; unansweredForMs: () => number } {
  const waiting = new WaitingQueries(timeoutMs, Math.max(busyTimeoutMs, timeoutMs));
  // Every query of this pool carries the same entry function; an unexecuted one shows it.
  const poolEntry = (sql`` as unknown as PooledQuery).handler;
  const watchedEntry: PoolEntry = (query) => {
    waiting.add(query);
    poolEntry(query);
  };
  watchedEntry.debug = poolEntry.debug;

  // Fragments, identifiers and file queries have another (or no) handler and pass untouched.
  const watch = <T>(result: T): T => {
    const query = result as unknown as PooledQuery;
    if (query?.handler === poolEntry) query.handler = watchedEntry;
    return result;
  };

  const unsafe = sql.unsafe;
  // Arguments are passed through as given: unsafe() reads how many it was called with.
  sql.unsafe = ((...args: Parameters<typeof unsafe>) => watch(unsafe(...args))) as typeof unsafe;
  // A plain function with the pool's own properties (getters included), not a Proxy: every query
  // of the hot read paths goes through this call, and a Proxy's apply trap cost the data plane
  // about a third of its CPU per request on a 50-row page (bench/, `pnpm bench`).
  const bounded = ((...args: Parameters<typeof sql>) => watch(sql(...args))) as unknown as postgres.Sql;
  Object.defineProperties(bounded, Object.getOwnPropertyDescriptors(sql));
  return { sql: bounded, queryCounts: () => waiting.counts(), unansweredForMs: () => waiting.unansweredForMs(performance.now()) };
}
