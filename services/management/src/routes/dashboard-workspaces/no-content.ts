import { MANAGEMENT_ROUTE_ERROR_STATUSES, ManagementErrorBodySchema } from '@raffle/contracts';
import { Type } from '@sinclair/typebox';

/** managementResponses for a route that answers 204 with no body (it only takes 200 and 201). */
export function noContentResponses() {
  const errors = Object.fromEntries(MANAGEMENT_ROUTE_ERROR_STATUSES.map((s) => [s, Type.Ref(ManagementErrorBodySchema)]));
  return { 204: Type.Null({ description: 'Done; no body.' }), ...errors };
}
