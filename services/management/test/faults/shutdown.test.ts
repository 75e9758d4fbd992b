import { beforeAll, describe, expect, it } from 'vitest';
import {
  formatFaultTable,
  runShutdownScenario,
  shutdownViolations,
  tallyFaultScenario,
  useFaultDependencies,
  type ServiceProcess,
} from '@raffle/service-kit/testing/faults';
import { acknowledgedWrites, managementRequestPlan } from '../support/fault-load.js';
import { missingWrites } from '../support/fault-queries.js';
import { isManagementErrorBody, startManagement } from '../support/fault-service.js';
import { tokenFor } from '../support/jwt.js';
import { seedTenant, type Tenant } from '../support/tenant.js';

const deps = useFaultDependencies();
let service: ServiceProcess;
let tenant: Tenant;
let token: string;

beforeAll(async () => {
  tenant = await deps().withDatabase((database) => seedTenant(database));
  token = tokenFor(tenant.owner.id);
  service = await startManagement(deps());
}, 120_000);

describe('management shutdown', () => {
  it('SIGTERM under keep-alive load: the request in flight completes, new requests get 503 with the error body and Retry-After, no connection is reset', async () => {
    const headers = { authorization: `Bearer ${token}` };
    const run = await runShutdownScenario({
      service,
      load: { clients: 4, pauseMs: 30, timeoutMs: 10_000, next: managementRequestPlan(tenant.workspace.id, token).next },
      inFlight: {
        kind: 'write',
        label: 'POST /api/dashboard/workspaces/{id}/projects',
        method: 'POST',
        path: `/api/dashboard/workspaces/${tenant.workspace.id}/projects`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ slug: `in-flight-${tenant.tag}`, name: 'In flight at SIGTERM' }),
      },
      idleConnections: 4,
      probe: { kind: 'read', label: 'GET /api/dashboard/workspaces (idle keep-alive connection)', method: 'GET', path: '/api/dashboard/workspaces', headers },
    });
    const all = [...run.outcomes, run.inFlight, ...run.onIdleConnections];
    const missing = await deps().withDatabase(({ sql }) => missingWrites(sql, acknowledgedWrites(all)));
    console.log(formatFaultTable('management', [tallyFaultScenario('SIGTERM under keep-alive load', all, run.marks, missing.length, { measuresRecovery: false })]));

    expect(shutdownViolations(run, isManagementErrorBody), service.output().slice(-1500)).toEqual([]);
    expect(missing).toEqual([]);
    const afterSignal = [...run.outcomes, ...run.onIdleConnections].filter((o) => o.startedAt >= run.marks.faultAt);
    expect(afterSignal.filter((o) => o.status === 503).length, 'requests after SIGTERM answered 503').toBeGreaterThan(0);
  });
});
