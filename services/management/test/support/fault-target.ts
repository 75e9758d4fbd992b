import type { FaultTarget } from '@raffle/service-kit/testing/faults';
import { acknowledgedWrites, managementRequestPlan } from './fault-load.js';
import { missingWrites } from './fault-queries.js';
import { isManagementErrorBody, startManagement } from './fault-service.js';
import { tokenFor } from './jwt.js';
import { seedTenant } from './tenant.js';

/** Management in the shared fault suites: run as a process, under one owner's mixed load, its writes looked up by id. */
export const managementFaultTarget: FaultTarget = {
  service: 'management',
  start: (deps, env) => startManagement(deps, env),
  plan: async (database) => {
    const tenant = await seedTenant(database);
    return managementRequestPlan(tenant.workspace.id, tokenFor(tenant.owner.id));
  },
  missingWrites: ({ sql }, outcomes) => missingWrites(sql, acknowledgedWrites(outcomes)),
  isErrorBody: isManagementErrorBody,
};
