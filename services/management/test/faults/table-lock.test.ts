import { describeTableLock } from '@raffle/service-kit/testing/faults';
import { managementFaultTarget } from '../support/fault-target.js';

describeTableLock({
  ...managementFaultTarget,
  table: 'raffles',
  // Projects and workspaces are rows of their own: they never read raffles.
  untouchedRoutes: ['GET /api/dashboard/workspaces', 'GET /api/dashboard/workspaces/{id}/projects', 'POST /api/dashboard/workspaces/{id}/projects'],
});
