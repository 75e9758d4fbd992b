import type { FaultTarget } from '@raffle/service-kit/testing/faults';
import { acknowledgedEntryIds, dataPlaneRequestPlan } from './fault-load.js';
import { missingEntryIds } from './fault-queries.js';
import { isDataPlaneErrorBody, startDataPlane } from './fault-service.js';
import { seedFaultTenant } from './fault-tenant.js';

/** The data plane in the shared fault suites: run as a process, under three reads to one entry, its entries looked up by id. */
export const dataPlaneFaultTarget: FaultTarget = {
  service: 'data-plane',
  start: (deps, env) => startDataPlane(deps, env),
  plan: async (database) => dataPlaneRequestPlan(await seedFaultTenant(database, { entrants: 30, raffles: 20 })),
  missingWrites: ({ sql }, outcomes) => missingEntryIds(sql, acknowledgedEntryIds(outcomes)),
  isErrorBody: isDataPlaneErrorBody,
};
