import { describePostgresOutages } from '@raffle/service-kit/testing/faults';
import { dataPlaneFaultTarget } from '../support/fault-target.js';

describePostgresOutages(dataPlaneFaultTarget);
