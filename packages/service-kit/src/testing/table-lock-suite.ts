import { describe, expect, it } from 'vitest';
import { errorLogSummary } from './error-log-summary.js';
import { boundedAnswerViolations, unexpectedStatusViolations } from './fault-checks.js';
import { useFaultDependencies } from './fault-dependencies.js';
import { runFaultScenario } from './fault-scenario.js';
import { tallyFaultScenario } from './fault-tally.js';
import { useLoadedService, type FaultTarget } from './loaded-service.js';
import { startReadinessProbe } from './readiness-probe.js';
import type { RequestOutcome } from './request-load.js';
import { holdTableLock, type HeldTableLock } from './table-lock.js';

/**
 * Longer than every bound a request has on its database time (lock waits, statements, the wait
 * for a pooled connection: docs/decisions/0018), so the bounds, not the lock's end, must answer.
 * Issue 22 saw 75 s; this keeps the stage short.
 */
const LOCK_HELD_MS = 25_000;

/** Generous against the bounds (a 2 s lock wait, behind at most a queue of them), well short of the lock. */
const MAX_ANSWER_MS = 10_000;

/** "Served again" once the lock is gone, measured from its release. */
const MAX_RECOVERY_MS = 5000;

/** What differs between services: how to run one, what to send it, which of its routes never read the locked table. */
export type TableLockTarget = FaultTarget & {
  /** The table to lock; the plan's other routes must not read it. */
  table: string;
  /** Labels of the plan's requests that do not touch `table`: they keep answering 2xx throughout. */
  untouchedRoutes: string[];
};

/**
 * The service as a process under a mixed load, with more clients than pooled connections, while
 * another session holds `LOCK TABLE <table> IN ACCESS EXCLUSIVE MODE` for longer than any request
 * may wait (issue 22): every request is answered within its bound (2xx, or 503 with the error
 * body and Retry-After; no other 5xx, no hang), the routes that do not touch the table keep
 * answering 2xx, `/health/ready` stays 200 (one slow table must not take every replica out of
 * rotation at once), the service serves again once the lock is gone, and no acknowledged write is
 * lost. Prints the fault table.
 */
export function describeTableLock(target: TableLockTarget): void {
  const deps = useFaultDependencies();
  const loaded = useLoadedService(target, deps);

  describe(`${target.service} while ${target.table} is locked`, () => {
    it(`${target.table} locked ACCESS EXCLUSIVE for ${LOCK_HELD_MS / 1000} s: bounded answers (2xx or 503), untouched routes 2xx, ready throughout, no write lost`, async () => {
      const service = loaded.service();
      let lock: HeldTableLock | null = null;
      const readiness = startReadinessProbe(service.origin, { everyMs: 250, timeoutMs: 5000 });
      const run = await runFaultScenario({
        // Twice the pool's connections (fault-service.ts), so a pool held by waiting statements
        // makes the other routes queue for a connection, as in the issue.
        load: { origin: service.origin, clients: 8, pauseMs: 50, timeoutMs: LOCK_HELD_MS + 10_000, next: loaded.next },
        fault: async () => {
          lock = await holdTableLock(deps().databaseUrl, target.table);
        },
        restore: async () => lock?.release(),
        outageMs: LOCK_HELD_MS,
        maxAfterMs: 15_000,
      }).finally(() => lock?.release().catch(() => undefined));
      const probes = await readiness.stop();
      const missing = await deps().withDatabase((database) => target.missingWrites(database, run.outcomes));
      const tally = tallyFaultScenario(`${target.table} locked ${LOCK_HELD_MS / 1000} s`, run.outcomes, run.marks, missing.length);
      loaded.tallies.push(tally);

      const untouched = (o: RequestOutcome) => target.untouchedRoutes.includes(o.label);
      const whileLocked = (o: RequestOutcome) => o.startedAt >= run.marks.downAt && o.startedAt < run.marks.backAt;
      const notReady = probes.filter((o) => o.status !== 200).map((o) => `${Math.round(o.startedAt - run.marks.downAt)} ms after the lock: ${o.status ?? o.transportError} ${JSON.stringify(o.body)}`);

      // Soft: a run shows every property it broke, not only the first.
      expect.soft(service.exit(), service.output().slice(-3000)).toBeNull();
      expect.soft(boundedAnswerViolations(run, target.isErrorBody, MAX_ANSWER_MS), errorLogSummary(service.logs())).toEqual([]);
      expect.soft(unexpectedStatusViolations(run, (o) => !untouched(o) || (o.status !== null && o.status >= 200 && o.status < 300))).toEqual([]);
      expect.soft(run.outcomes.filter((o) => untouched(o) && whileLocked(o)).length, 'untouched routes answered while the table was locked').toBeGreaterThan(0);
      expect.soft(notReady.slice(0, 3), `${notReady.length} of ${probes.length} readiness answers were not 200`).toEqual([]);
      expect.soft(probes.filter(whileLocked).length, 'readiness probes while the table was locked').toBeGreaterThan(0);
      expect.soft(run.outcomes.filter((o) => whileLocked(o) && o.status === 503).length, 'the lock reached the requests').toBeGreaterThan(0);
      expect.soft(tally.recoveryMs).not.toBeNull();
      expect.soft(tally.recoveryMs!).toBeLessThanOrEqual(MAX_RECOVERY_MS);
      expect.soft(missing).toEqual([]);
    }, LOCK_HELD_MS + 60_000);
  });
}
