import { describeShutdown } from '@raffle/service-kit/testing/faults';
import { acknowledgedEntryIds, dataPlaneRequestPlan } from '../support/fault-load.js';
import { missingEntryIds } from '../support/fault-queries.js';
import { isDataPlaneErrorBody, startDataPlane } from '../support/fault-service.js';
import { seedFaultTenant } from '../support/fault-tenant.js';

describeShutdown({
  service: 'data-plane',
  start: (deps) => startDataPlane(deps),
  requests: async (database) => {
    const tenant = await seedFaultTenant(database, { entrants: 10, raffles: 10 });
    // Its own entrant and raffle, so the in-flight entry is a pair the load never writes.
    const spare = await seedFaultTenant(database, { entrants: 1, raffles: 1 });
    const entrant = spare.entrants[0]!;
    return {
      next: dataPlaneRequestPlan(tenant).next,
      inFlight: {
        kind: 'write',
        label: 'POST /api/v1/raffles/{slug}/entries (in flight at SIGTERM)',
        method: 'POST',
        path: `/api/v1/raffles/${spare.raffleSlugs[0]}/entries`,
        headers: { authorization: `Bearer ${entrant.apiKey}`, 'content-type': 'application/json', 'idempotency-key': `shutdown-${spare.tag}` },
        body: '{}',
      },
      probe: { kind: 'read', label: 'GET /api/v1/me (idle keep-alive connection)', method: 'GET', path: '/api/v1/me', headers: { authorization: `Bearer ${entrant.apiKey}` } },
    };
  },
  missingWrites: ({ sql }, outcomes) => missingEntryIds(sql, acknowledgedEntryIds(outcomes)),
  isErrorBody: isDataPlaneErrorBody,
});
