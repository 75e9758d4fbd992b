import { beforeAll, describe, expect, it } from 'vitest';
import {
  formatFaultTable,
  runShutdownScenario,
  shutdownViolations,
  tallyFaultScenario,
  useFaultDependencies,
  type ServiceProcess,
} from '@raffle/service-kit/testing/faults';
import { acknowledgedEntryIds, dataPlaneRequestPlan } from '../support/fault-load.js';
import { missingEntryIds } from '../support/fault-queries.js';
import { isDataPlaneErrorBody, startDataPlane } from '../support/fault-service.js';
import { seedFaultTenant, type FaultTenant } from '../support/fault-tenant.js';

const deps = useFaultDependencies();
let service: ServiceProcess;
let tenant: FaultTenant;
/** Its own entrant and raffle, so the in-flight entry is a pair the load never writes. */
let spare: FaultTenant;

beforeAll(async () => {
  [tenant, spare] = await deps().withDatabase(async (database) => [
    await seedFaultTenant(database, { entrants: 10, raffles: 10 }),
    await seedFaultTenant(database, { entrants: 1, raffles: 1 }),
  ]);
  service = await startDataPlane(deps());
}, 120_000);

describe('data plane shutdown', () => {
  it('SIGTERM under keep-alive load: the request in flight completes, new requests get 503 with the error body and Retry-After, no connection is reset', async () => {
    const entrant = spare.entrants[0]!;
    const run = await runShutdownScenario({
      service,
      load: { clients: 4, pauseMs: 30, timeoutMs: 10_000, next: dataPlaneRequestPlan(tenant).next },
      inFlight: {
        kind: 'write',
        label: 'POST /api/v1/raffles/{slug}/entries (in flight at SIGTERM)',
        method: 'POST',
        path: `/api/v1/raffles/${spare.raffleSlugs[0]}/entries`,
        headers: { authorization: `Bearer ${entrant.apiKey}`, 'content-type': 'application/json', 'idempotency-key': `shutdown-${spare.tag}` },
        body: '{}',
      },
      idleConnections: 4,
      probe: { kind: 'read', label: 'GET /api/v1/me (idle keep-alive connection)', method: 'GET', path: '/api/v1/me', headers: { authorization: `Bearer ${entrant.apiKey}` } },
    });
    const all = [...run.outcomes, run.inFlight, ...run.onIdleConnections];
    const missing = await deps().withDatabase(({ sql }) => missingEntryIds(sql, acknowledgedEntryIds(all)));
    console.log(formatFaultTable('data-plane', [tallyFaultScenario('SIGTERM under keep-alive load', all, run.marks, missing.length, { measuresRecovery: false })]));

    expect(shutdownViolations(run, isDataPlaneErrorBody), service.output().slice(-1500)).toEqual([]);
    expect(missing).toEqual([]);
    const afterSignal = [...run.outcomes, ...run.onIdleConnections].filter((o) => o.startedAt >= run.marks.faultAt);
    expect(afterSignal.filter((o) => o.status === 503).length, 'requests after SIGTERM answered 503').toBeGreaterThan(0);
  });
});
