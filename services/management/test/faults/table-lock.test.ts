import { describeTableLock } from '@raffle/service-kit/testing/faults';
import { acknowledgedWrites, managementRequestPlan } from '../support/fault-load.js';
import { missingWrites } from '../support/fault-queries.js';
import { isManagementErrorBody, startManagement } from '../support/fault-service.js';
import { tokenFor } from '../support/jwt.js';
import { seedTenant } from '../support/tenant.js';

describeTableLock({
  service: 'management',
  table: 'raffles',
  start: (deps) => startManagement(deps),
  plan: async (database) => {
    const tenant = await seedTenant(database);
    return managementRequestPlan(tenant.workspace.id, tokenFor(tenant.owner.id));
  },
  missingWrites: ({ sql }, outcomes) => missingWrites(sql, acknowledgedWrites(outcomes)),
  isErrorBody: isManagementErrorBody,
  // Projects and workspaces are rows of their own: they never read raffles.
  untouchedRoutes: ['GET /api/dashboard/workspaces', 'GET /api/dashboard/workspaces/{id}/projects', 'POST /api/dashboard/workspaces/{id}/projects'],
});
