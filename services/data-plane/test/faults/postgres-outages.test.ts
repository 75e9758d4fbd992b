import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseOutageViolations,
  errorLogSummary,
  formatFaultTable,
  runFaultScenario,
  startPrivatePostgres,
  tallyFaultScenario,
  useFaultDependencies,
  type FaultTally,
  type PostgresStopMode,
  type ServiceProcess,
} from '@raffle/service-kit/testing/faults';
import { acknowledgedEntryIds, dataPlaneRequestPlan } from '../support/fault-load.js';
import { missingEntryIds } from '../support/fault-queries.js';
import { isDataPlaneErrorBody, startDataPlane } from '../support/fault-service.js';
import { seedFaultTenant } from '../support/fault-tenant.js';

/** "Full service again within a few seconds of its return" (issue 9), measured from the restart's return. */
const MAX_RECOVERY_MS = 5000;

const deps = useFaultDependencies({ ownPostgres: () => startPrivatePostgres() });
let service: ServiceProcess;
let plan: ReturnType<typeof dataPlaneRequestPlan>;
const tallies: FaultTally[] = [];

beforeAll(async () => {
  const tenant = await deps().withDatabase((database) => seedFaultTenant(database, { entrants: 30, raffles: 20 }));
  // One plan for the file: each scenario's writes are pairs no earlier scenario used.
  plan = dataPlaneRequestPlan(tenant);
  service = await startDataPlane(deps());
}, 120_000);
afterAll(() => console.log(formatFaultTable('data-plane', tallies)));

const SCENARIOS: Array<{ name: string; mode: PostgresStopMode }> = [
  { name: 'Postgres fast stop + restart', mode: 'fast' },
  { name: 'Postgres kill -9 postmaster + restart', mode: 'kill' },
];

describe('data plane under Postgres outages', () => {
  for (const { name, mode } of SCENARIOS) {
    it(`${name}: stays up, answers 503 fast while down, serves again without a restart, loses no write`, async () => {
      const postgres = deps().postgres!;
      const run = await runFaultScenario({
        load: { origin: service.origin, clients: 4, pauseMs: 30, timeoutMs: 10_000, next: plan.next },
        fault: () => postgres.stop(mode),
        restore: () => postgres.start(),
      });
      const missing = await deps().withDatabase(({ sql }) => missingEntryIds(sql, acknowledgedEntryIds(run.outcomes)));
      const tally = tallyFaultScenario(name, run.outcomes, run.marks, missing.length);
      tallies.push(tally);

      expect(service.exit(), service.output().slice(-3000)).toBeNull();
      expect(databaseOutageViolations(run, isDataPlaneErrorBody), errorLogSummary(service.logs())).toEqual([]);
      expect(tally.statuses['503'] ?? 0, 'the outage reached the requests').toBeGreaterThan(0);
      expect(tally.recoveryMs).not.toBeNull();
      expect(tally.recoveryMs!).toBeLessThanOrEqual(MAX_RECOVERY_MS);
      expect(missing).toEqual([]);
    });
  }
});
