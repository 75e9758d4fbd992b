import type { Database } from '@raffle/db';
import { afterAll, beforeAll } from 'vitest';
import type { ErrorBodyCheck } from './fault-checks.js';
import type { FaultDependencies, OwnPostgres } from './fault-dependencies.js';
import { formatFaultTable, type FaultTally } from './fault-tally.js';
import type { PlannedRequest, RequestOutcome } from './request-load.js';
import type { ServiceProcess } from './service-process.js';

/** What differs between services in a fault suite: how to run one, what to send it, how to find its writes. */
export type FaultTarget<P extends OwnPostgres = OwnPostgres> = {
  service: string;
  /** `env` overrides the service's environment (a suite that puts a pooler in front of the database says so). */
  start: (deps: FaultDependencies<P>, env?: Record<string, string>) => Promise<ServiceProcess>;
  /** Seeds the tenant; its plan yields the mixed reads and writes (writes no earlier scenario used). */
  plan: (database: Database) => Promise<{ next: () => PlannedRequest }>;
  /** The acknowledged writes of these outcomes that are not in the database. */
  missingWrites: (database: Database, outcomes: RequestOutcome[]) => Promise<unknown[]>;
  isErrorBody: ErrorBodyCheck;
};

/**
 * A fault suite's service: its tenant seeded and the service started before the file's tests, and
 * the fault table of every scenario pushed to `tallies` printed after them (the closing note
 * quotes it).
 */
export function useLoadedService<P extends OwnPostgres>(target: FaultTarget<P>, deps: () => FaultDependencies<P>) {
  let service: ServiceProcess | undefined;
  let plan: { next: () => PlannedRequest } | undefined;
  const tallies: FaultTally[] = [];

  beforeAll(async () => {
    plan = await deps().withDatabase(target.plan);
    service = await target.start(deps());
  }, 120_000);
  afterAll(() => console.log(formatFaultTable(target.service, tallies)));

  return {
    service(): ServiceProcess {
      if (!service) throw new Error(`${target.service} is not running (beforeAll failed)`);
      return service;
    },
    /** The plan's next request, for a load's `next`. */
    next: (): PlannedRequest => plan!.next(),
    tallies,
  };
}
