import { describeTableLock } from '@raffle/service-kit/testing/faults';
import { dataPlaneFaultTarget } from '../support/fault-target.js';

describeTableLock({
  ...dataPlaneFaultTarget,
  table: 'raffles',
  // The profile is the user's row: it never reads raffles (issue 22 saw it take 43.7 s all the same).
  untouchedRoutes: ['GET /api/v1/me'],
});
