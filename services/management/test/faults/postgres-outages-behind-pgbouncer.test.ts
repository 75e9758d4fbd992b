import { describePostgresOutages } from '@raffle/service-kit/testing/faults';
import { managementFaultTarget } from '../support/fault-target.js';

// Issue 34: behind a transaction pooler an outage must be answered as fast as without one (decision 0041).
describePostgresOutages(managementFaultTarget, { behindPgBouncer: true, outageMs: 3000 });
