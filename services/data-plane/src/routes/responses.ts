import { DATA_PLANE_ROUTE_ERROR_STATUSES, ErrorBodySchema } from '@raffle/contracts';
import { pathString, unavailableResponse } from '@raffle/service-kit';
import { Type, type TSchema } from '@sinclair/typebox';

type ErrorResponses = Record<(typeof DATA_PLANE_ROUTE_ERROR_STATUSES)[number] | 503, TSchema>;

const errorResponses = (): ErrorResponses =>
  ({
    ...Object.fromEntries(DATA_PLANE_ROUTE_ERROR_STATUSES.map((status) => [status, Type.Ref(ErrorBodySchema)])),
    503: unavailableResponse(Type.Ref(ErrorBodySchema)),
  }) as ErrorResponses;

/** A route's 200 schema plus the spec's eight error statuses and the 503 of an outage, each with the error body. */
export function dataPlaneResponses<T extends TSchema>(ok: T) {
  return { 200: ok, ...errorResponses() } as { 200: T } & ErrorResponses;
}

/** The same for a route that creates: 201 with the created resource. */
export function dataPlaneCreatedResponses<T extends TSchema>(created: T) {
  return { 201: created, ...errorResponses() } as { 201: T } & ErrorResponses;
}

export const WorkspaceParams = Type.Object({ workspaceId: pathString('Workspace id') });
export const WorkspaceRaffleParams = Type.Object({
  workspaceId: pathString('Workspace id'),
  raffleId: pathString('Raffle id'),
});
export const WorkspaceProjectParams = Type.Object({
  workspaceId: pathString('Workspace id'),
  projectId: pathString('Project id'),
});
export const SlugParams = Type.Object({ slug: pathString('Raffle slug') });
