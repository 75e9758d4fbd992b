import { describeShutdown } from '@raffle/service-kit/testing/faults';
import { acknowledgedWrites, managementRequestPlan } from '../support/fault-load.js';
import { missingWrites } from '../support/fault-queries.js';
import { isManagementErrorBody, startManagement } from '../support/fault-service.js';
import { tokenFor } from '../support/jwt.js';
import { seedTenant } from '../support/tenant.js';

describeShutdown({
  service: 'management',
  start: (deps) => startManagement(deps),
  requests: async (database) => {
    const tenant = await seedTenant(database);
    const token = tokenFor(tenant.owner.id);
    const headers = { authorization: `Bearer ${token}` };
    return {
      next: managementRequestPlan(tenant.workspace.id, token).next,
      inFlight: {
        kind: 'write',
        label: 'POST /api/dashboard/workspaces/{id}/projects',
        method: 'POST',
        path: `/api/dashboard/workspaces/${tenant.workspace.id}/projects`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ slug: `in-flight-${tenant.tag}`, name: 'In flight at SIGTERM' }),
      },
      probe: { kind: 'read', label: 'GET /api/dashboard/workspaces (idle keep-alive connection)', method: 'GET', path: '/api/dashboard/workspaces', headers },
    };
  },
  missingWrites: ({ sql }, outcomes) => missingWrites(sql, acknowledgedWrites(outcomes)),
  isErrorBody: isManagementErrorBody,
});
