import { MANAGEMENT_ROUTE_ERROR_STATUSES, ManagementErrorBodySchema } from '@raffle/contracts';
import { unavailableResponse, type CsvAttachmentResponse } from '@raffle/service-kit';
import { Type, type TSchema } from '@sinclair/typebox';

/**
 * A route's success schema (or a whole download response) plus the management error statuses and
 * the 503 of an outage, each with the management error body.
 */
export function managementResponses<S extends 200 | 201 | 202, T extends TSchema | CsvAttachmentResponse>(status: S, ok: T) {
  const errors = Object.fromEntries(MANAGEMENT_ROUTE_ERROR_STATUSES.map((s) => [s, Type.Ref(ManagementErrorBodySchema)]));
  const unavailable = unavailableResponse(Type.Ref(ManagementErrorBodySchema));
  return { [status]: ok, ...errors, 503: unavailable } as { [K in S]: T } & Record<(typeof MANAGEMENT_ROUTE_ERROR_STATUSES)[number] | 503, TSchema>;
}
