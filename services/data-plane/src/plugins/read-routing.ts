import {
  createDatabase,
  formatWalPosition,
  isConnectionError,
  isTransientTransactionFailure,
  parseWalPosition,
  readPrimaryWalPosition,
  readReplicaReplayPosition,
  STATEMENT_BOUNDS,
  type Database,
} from '@raffle/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge } from 'prom-client';
import { callerOf, configOf } from '../decorations.js';
import { createReadRouter, type ReadRouter } from '../read-routing/read-router.js';
import { createReplicaFreshness, type ReplicaFreshness } from '../read-routing/replica-freshness.js';
import { createWalClock, type WalClock } from '../read-routing/wal-clock.js';
import { createWriteFences, type WriteFences } from '../read-routing/write-fences.js';

/**
 * On every routed read: at most how many ms behind the primary its data was when the read began
 * (0: read from the primary); a shared cached page adds its time in the cache.
 */
export const STALENESS_HEADER = 'Raffle-Staleness-Ms';
/** On writes when reads may go to a replica: the write's WAL position, a token a client sends back to read it anywhere. */
export const READ_AFTER_HEADER = 'Raffle-Read-After';

export type ReadRouting = {
  /**
   * Runs a read on the replica when it is fresh enough and has replayed the caller's own writes,
   * else on the primary, and says which in `Raffle-Staleness-Ms`. A read the replica fails as if
   * it were down runs again on the primary: a replica outage costs latency, never an error.
   */
  read<T>(request: FastifyRequest, reply: FastifyReply, run: (database: Database) => Promise<T>): Promise<T>;
  /**
   * The same for a result more than one request will send (a shared cache): no header, but the
   * moment its data is at least as fresh as, for each reuse to pass to `sayStaleness`.
   */
  readShared<T>(request: FastifyRequest, run: (database: Database) => Promise<T>): Promise<{ value: T; freshAsOf: number }>;
  /** Sets `Raffle-Staleness-Ms` for data at least as fresh as `freshAsOf` (a Date.now() value). */
  sayStaleness(reply: FastifyReply, freshAsOf: number): void;
  /** Call after a write for the request's caller committed: their next reads see it, here and (with the token) anywhere. */
  wrote(request: FastifyRequest, reply: FastifyReply): Promise<void>;
};

export type ReadRoutingOptions = {
  /** A read-replica pool to use instead of opening one from DATABASE_READ_URL (tests). */
  readDatabase?: Database;
};

type Replica = { database: Database; freshness: ReplicaFreshness; fences: WriteFences; clock: WalClock };

/** Only a personal key writes on the data plane (entering, withdrawing): its reads are the ones fenced. */
const fencedCallerOf = (request: FastifyRequest) => {
  const caller = callerOf(request);
  return caller?.kind === 'personal' ? caller.userId : null;
};

function presentedToken(request: FastifyRequest): bigint | null {
  const value = request.headers['raffle-read-after'];
  if (typeof value !== 'string') return null;
  try {
    return parseWalPosition(value);
  } catch {
    // Routed reads validate the header in their schema; elsewhere a malformed one is no token.
    return null;
  }
}

async function readRoutingPlugin(app: FastifyInstance, options: ReadRoutingOptions) {
  const config = configOf(app);
  const primary = app.database;
  const replica = await openReplica(app, options);
  const router: ReadRouter = createReadRouter(replica && { ...replica, maxStalenessMs: config.DATABASE_READ_MAX_STALENESS_MS });
  const metrics = readMetrics(app, replica?.freshness ?? null);

  /**
   * Runs the read where the router says. `stalenessMs` is how far behind the data was when the
   * read began (0 on the primary; never past the bound on the replica); the result is at least as
   * fresh as `freshAsOf`.
   */
  const routed = async <T>(request: FastifyRequest, run: (database: Database) => Promise<T>) => {
    const plan = router.plan(fencedCallerOf(request), presentedToken(request));
    const planned = Date.now();
    metrics.reads.inc({ target: plan.target, reason: plan.reason });
    // A read on the primary is as fresh as the data gets: it counts as current when it ends.
    if (plan.target === 'primary' || !replica) return onPrimary(await run(primary));
    try {
      return { value: await run(replica.database), freshAsOf: planned - plan.stalenessMs, stalenessMs: plan.stalenessMs };
    } catch (error) {
      const down = isConnectionError(error);
      // A recovery conflict (replay cancelled the query, 40001) is not an outage: only the retry moves.
      if (!down && !isTransientTransactionFailure(error)) throw error;
      if (down) replica.freshness.markUnavailable();
      metrics.reads.inc({ target: 'primary', reason: 'replica_failed' });
      return onPrimary(await run(primary));
    }
  };
  const onPrimary = <T>(value: T) => ({ value, freshAsOf: Date.now(), stalenessMs: 0 });
  const sayStaleness = (reply: FastifyReply, freshAsOf: number) => {
    reply.header(STALENESS_HEADER, String(Math.max(0, Math.ceil(Date.now() - freshAsOf))));
  };

  const routing: ReadRouting = {
    async read(request, reply, run) {
      const { value, stalenessMs } = await routed(request, run);
      reply.header(STALENESS_HEADER, String(Math.ceil(stalenessMs)));
      return value;
    },
    async readShared(request, run) {
      const { value, freshAsOf } = await routed(request, run);
      return { value, freshAsOf };
    },
    sayStaleness,
    async wrote(request, reply) {
      const caller = fencedCallerOf(request);
      if (!replica || caller === null) return;
      try {
        const position = await replica.clock.afterNow();
        replica.fences.record(caller, position);
        reply.header(READ_AFTER_HEADER, formatWalPosition(position));
      } catch (error) {
        // The write is committed; only its fence is lost, so the caller's next read may be stale
        // by the bound at most. Its answer must not turn into an error for that.
        request.log.warn({ err: error }, 'could not read the WAL position after a write: the next read may not see it on the replica');
      }
    },
  };
  app.decorate('readRouting', routing);
}

async function openReplica(app: FastifyInstance, options: ReadRoutingOptions): Promise<Replica | null> {
  const config = configOf(app);
  if (!options.readDatabase && !config.DATABASE_READ_URL) return null;
  const database =
    options.readDatabase ??
    createDatabase({
      url: config.DATABASE_READ_URL!,
      max: config.DATABASE_READ_POOL_SIZE ?? config.DATABASE_POOL_SIZE,
      applicationName: 'data-plane-reads',
      statementBounds: STATEMENT_BOUNDS.request,
    });
  const clock = createWalClock(() => readPrimaryWalPosition(app.database.sql));
  const fences = createWriteFences();
  const freshness = createReplicaFreshness({
    primary: clock,
    replicaPosition: async () => {
      const position = await readReplicaReplayPosition(database.sql);
      if (position !== null) fences.forgetReplayed(position);
      return position;
    },
    intervalMs: config.DATABASE_READ_SAMPLE_INTERVAL_MS,
    onAvailabilityChange: (available, reason) =>
      available ? app.log.info('reads go to the read replica') : app.log.warn({ reason }, 'reads go to the primary: the read replica is unavailable'),
  });
  app.addHook('onReady', () => freshness.start());
  app.addHook('onClose', async () => {
    await freshness.stop();
    if (!options.readDatabase) await database.close();
  });
  return { database, freshness, fences, clock };
}

/**
 * What operators watch of the routing (infra/prometheus/alerts.yaml, docs/runbook.md). The
 * replica's gauges exist only where one is configured, so its alerts cannot fire where there is none.
 */
function readMetrics(app: FastifyInstance, freshness: ReplicaFreshness | null) {
  const registers = [app.metricsRegistry];
  if (freshness) {
    new Gauge({
      name: 'raffle_read_replica_staleness_ms',
      help: 'At most how old the read replica\'s data is, as this instance last sampled it (-1 while it is unavailable)',
      registers,
      collect() {
        this.set(freshness.stalenessMs() ?? -1);
      },
    });
    new Gauge({
      name: 'raffle_read_replica_available',
      help: '1 while reads may go to the read replica (answering and replaying), else 0',
      registers,
      collect() {
        this.set(freshness.stalenessMs() !== null ? 1 : 0);
      },
    });
  }
  return {
    reads: new Counter({
      name: 'raffle_reads_total',
      help: 'Routed reads by where they ran (replica or primary) and why',
      labelNames: ['target', 'reason'] as const,
      registers,
    }),
  };
}

export default fp(readRoutingPlugin, { name: 'read-routing', dependencies: ['config', 'database', 'metrics', 'auth'] });
