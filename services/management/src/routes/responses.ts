import { MANAGEMENT_ROUTE_ERROR_STATUSES, ManagementErrorBodySchema } from '@raffle/contracts';
import { unavailableResponse } from '@raffle/service-kit';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';

/** A route's success schema plus the management error statuses and the 503 of an outage, each with the management error body. */
export function managementResponses<S extends 200 | 201 | 202, T extends TSchema>(status: S, ok: T) {
  const errors = Object.fromEntries(MANAGEMENT_ROUTE_ERROR_STATUSES.map((s) => [s, Type.Ref(ManagementErrorBodySchema)]));
  const unavailable = unavailableResponse(Type.Ref(ManagementErrorBodySchema));
  return { [status]: ok, ...errors, 503: unavailable } as { [K in S]: T } & Record<(typeof MANAGEMENT_ROUTE_ERROR_STATUSES)[number] | 503, TSchema>;
}

/** Path values reach SQL as parameters; Postgres text cannot hold NUL, so control characters are refused up front. */
const pathString = (description: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f]+$', description });

export const KeyParams = Type.Object({ keyId: pathString('API key id') });
export const WorkspaceParams = Type.Object({ workspaceId: pathString('Workspace id') });
export const WorkspaceKeyParams = Type.Object({ workspaceId: pathString('Workspace id'), keyId: pathString('API key id') });

export const RollApiKeyBodySchema = Type.Object(
  {
    expireOldInSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604_800,
        default: 0,
        description: 'How long the old key keeps working; 0 (the default) revokes it at once. At most 7 days.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A roll needs no options, so a bodiless POST stands for `{}`. */
export async function emptyBodyAsObject(request: FastifyRequest) {
  if (request.body === undefined) request.body = {};
}
