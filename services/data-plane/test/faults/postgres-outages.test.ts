import { describePostgresOutages } from '@raffle/service-kit/testing/faults';
import { acknowledgedEntryIds, dataPlaneRequestPlan } from '../support/fault-load.js';
import { missingEntryIds } from '../support/fault-queries.js';
import { isDataPlaneErrorBody, startDataPlane } from '../support/fault-service.js';
import { seedFaultTenant } from '../support/fault-tenant.js';

describePostgresOutages({
  service: 'data-plane',
  start: (deps) => startDataPlane(deps),
  plan: async (database) => dataPlaneRequestPlan(await seedFaultTenant(database, { entrants: 30, raffles: 20 })),
  missingWrites: ({ sql }, outcomes) => missingEntryIds(sql, acknowledgedEntryIds(outcomes)),
  isErrorBody: isDataPlaneErrorBody,
});
