import { describePostgresOutages } from '@raffle/service-kit/testing/faults';
import { managementFaultTarget } from '../support/fault-target.js';

describePostgresOutages(managementFaultTarget);
