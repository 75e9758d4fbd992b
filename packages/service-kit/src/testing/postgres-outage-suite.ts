import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLogSummary } from './error-log-summary.js';
import { databaseOutageViolations } from './fault-checks.js';
import { useFaultDependencies } from './fault-dependencies.js';
import { runFaultScenario } from './fault-scenario.js';
import { tallyFaultScenario } from './fault-tally.js';
import { useLoadedService, type FaultTarget } from './loaded-service.js';
import { startPrivatePgBouncer, type PrivatePgBouncer } from './private-pgbouncer.js';
import { startPrivatePostgres, type PostgresStopMode, type PrivatePostgres } from './private-postgres.js';

/** "Full service again within a few seconds of its return" (issue 9), measured from the restart's return. */
const MAX_RECOVERY_MS = 5000;

const SCENARIOS: Array<{ name: string; mode: PostgresStopMode }> = [
  { name: 'Postgres fast stop + restart', mode: 'fast' },
  { name: 'Postgres kill -9 postmaster + restart', mode: 'kill' },
];

/** What differs between services: how to run one, what to send it, how to find its writes. */
export type OutageTarget = FaultTarget<PrivatePostgres>;

export type OutageSuiteOptions = {
  /**
   * The service reaches its database through a PgBouncer of the file's own in transaction mode
   * (`DATABASE_POOL_MODE=transaction`, as compose and Kubernetes run it; decision 0037), which
   * stays up while the Postgres behind it goes: a client of PgBouncer keeps its connection while
   * its statements wait there for a server (issue 34, decision 0041).
   */
  behindPgBouncer?: boolean;
  /** How long Postgres stays down; the scenario's default (2 s) unless said. */
  outageMs?: number;
};

/**
 * The service as a process under a steady load while its private Postgres is stopped (fast, and
 * `kill -9` of the postmaster) and started again: it stays up, answers 503 with its error body and
 * Retry-After within a second while the database is down, serves again within seconds of its
 * return without a restart, and loses no acknowledged write. Prints the fault table. With
 * `behindPgBouncer` the same holds with a transaction pooler between the service and Postgres.
 */
export function describePostgresOutages(target: OutageTarget, options: OutageSuiteOptions = {}): void {
  const deps = useFaultDependencies({ ownPostgres: () => startPrivatePostgres() });
  const pooler = options.behindPgBouncer ? usePrivatePgBouncer(deps) : null;
  const loaded = useLoadedService(pooler ? behind(pooler, target) : target, deps);
  const where = pooler ? ' behind PgBouncer (transaction mode)' : '';

  describe(`${target.service} under Postgres outages${where}`, () => {
    for (const { name, mode } of SCENARIOS) {
      it(`${name}: stays up, answers 503 fast while down, serves again without a restart, loses no write`, async () => {
        const postgres = deps().postgres!;
        const service = loaded.service();
        const run = await runFaultScenario({
          load: { origin: service.origin, clients: 4, pauseMs: 30, timeoutMs: 10_000, next: loaded.next },
          fault: () => postgres.stop(mode),
          restore: () => postgres.start(),
          outageMs: options.outageMs,
        });
        const missing = await deps().withDatabase((database) => target.missingWrites(database, run.outcomes));
        const tally = tallyFaultScenario(name, run.outcomes, run.marks, missing.length);
        loaded.tallies.push(tally);

        expect(service.exit(), service.output().slice(-3000)).toBeNull();
        expect(databaseOutageViolations(run, target.isErrorBody), errorLogSummary(service.logs())).toEqual([]);
        expect(tally.statuses['503'] ?? 0, 'the outage reached the requests').toBeGreaterThan(0);
        expect(tally.recoveryMs).not.toBeNull();
        expect(tally.recoveryMs!).toBeLessThanOrEqual(MAX_RECOVERY_MS);
        expect(missing).toEqual([]);
      });
    }
  });
}

/** A PgBouncer in transaction mode in front of the file's private Postgres, started after it and before the service. */
function usePrivatePgBouncer(deps: () => { postgres: PrivatePostgres | null }): () => PrivatePgBouncer {
  let pooler: PrivatePgBouncer | undefined;
  beforeAll(async () => {
    const postgres = deps().postgres!;
    pooler = await startPrivatePgBouncer({ targetHost: '127.0.0.1', targetPort: postgres.port, poolMode: 'transaction', targetPassword: 'postgres' });
  }, 60_000);
  afterAll(async () => pooler?.destroy());
  return () => {
    if (!pooler) throw new Error('the PgBouncer is not running (beforeAll failed)');
    return pooler;
  };
}

/** The target, started with its pool through the PgBouncer (the seeding and the checks still go straight to Postgres). */
function behind(pooler: () => PrivatePgBouncer, target: OutageTarget): OutageTarget {
  return {
    ...target,
    start: (deps, env) => target.start(deps, { DATABASE_URL: pooler().url(new URL(deps.databaseUrl).pathname.slice(1)), DATABASE_POOL_MODE: 'transaction', ...env }),
  };
}
