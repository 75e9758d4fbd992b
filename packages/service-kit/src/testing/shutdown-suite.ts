import type { Database } from '@raffle/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { shutdownViolations, type ErrorBodyCheck } from './fault-checks.js';
import { useFaultDependencies, type FaultDependencies } from './fault-dependencies.js';
import { formatFaultTable, tallyFaultScenario } from './fault-tally.js';
import type { PlannedRequest, RequestOutcome } from './request-load.js';
import type { ServiceProcess } from './service-process.js';
import { runShutdownScenario } from './shutdown-scenario.js';

/** What differs between services: how to run one, what it is sent around SIGTERM, how to find its writes. */
export type ShutdownTarget = {
  service: string;
  start: (deps: FaultDependencies) => Promise<ServiceProcess>;
  /**
   * Seeds the tenant: the steady load, a write that is in flight at SIGTERM (a pair the load never
   * writes) and the request each idle keep-alive connection sends after it.
   */
  requests: (database: Database) => Promise<{ next: () => PlannedRequest; inFlight: PlannedRequest & { body: string }; probe: PlannedRequest }>;
  missingWrites: (database: Database, outcomes: RequestOutcome[]) => Promise<unknown[]>;
  isErrorBody: ErrorBodyCheck;
};

/**
 * SIGTERM under keep-alive load: the request in flight completes, requests that still reach the
 * instance get 503 with its error body and Retry-After, no connection is reset under a request, no
 * acknowledged write is lost, and the process exits 0. Prints the fault table.
 */
export function describeShutdown(target: ShutdownTarget): void {
  const deps = useFaultDependencies();
  let service: ServiceProcess;
  let requests: Awaited<ReturnType<ShutdownTarget['requests']>>;

  beforeAll(async () => {
    requests = await deps().withDatabase(target.requests);
    service = await target.start(deps());
  }, 120_000);

  describe(`${target.service} shutdown`, () => {
    it('SIGTERM under keep-alive load: the request in flight completes, new requests get 503 with the error body and Retry-After, no connection is reset', async () => {
      const run = await runShutdownScenario({
        service,
        load: { clients: 4, pauseMs: 30, timeoutMs: 10_000, next: requests.next },
        inFlight: requests.inFlight,
        idleConnections: 4,
        probe: requests.probe,
      });
      const all = [...run.outcomes, run.inFlight, ...run.onIdleConnections];
      const missing = await deps().withDatabase((database) => target.missingWrites(database, all));
      console.log(formatFaultTable(target.service, [tallyFaultScenario('SIGTERM under keep-alive load', all, run.marks, missing.length, { measuresRecovery: false })]));

      expect(shutdownViolations(run, target.isErrorBody), service.output().slice(-1500)).toEqual([]);
      expect(missing).toEqual([]);
      const afterSignal = [...run.outcomes, ...run.onIdleConnections].filter((o) => o.startedAt >= run.marks.faultAt);
      expect(afterSignal.filter((o) => o.status === 503).length, 'requests after SIGTERM answered 503').toBeGreaterThan(0);
    });
  });
}
