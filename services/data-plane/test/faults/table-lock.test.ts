import { describeTableLock } from '@raffle/service-kit/testing/faults';
import { acknowledgedEntryIds, dataPlaneRequestPlan } from '../support/fault-load.js';
import { missingEntryIds } from '../support/fault-queries.js';
import { isDataPlaneErrorBody, startDataPlane } from '../support/fault-service.js';
import { seedFaultTenant } from '../support/fault-tenant.js';

describeTableLock({
  service: 'data-plane',
  table: 'raffles',
  start: (deps) => startDataPlane(deps),
  plan: async (database) => dataPlaneRequestPlan(await seedFaultTenant(database, { entrants: 30, raffles: 20 })),
  missingWrites: ({ sql }, outcomes) => missingEntryIds(sql, acknowledgedEntryIds(outcomes)),
  isErrorBody: isDataPlaneErrorBody,
  // The profile is the user's row: it never reads raffles (issue 22 saw it take 43.7 s all the same).
  untouchedRoutes: ['GET /api/v1/me'],
});
