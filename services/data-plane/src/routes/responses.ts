import { DATA_PLANE_ROUTE_ERROR_STATUSES, ErrorBodySchema } from '@raffle/contracts';
import { pathString, unavailableResponse, type CsvAttachmentResponse } from '@raffle/service-kit';
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

/**
 * The same for a read that may run on the read replica: its 200 says how stale it may be
 * (`Raffle-Staleness-Ms`, plugins/read-routing.ts).
 */
export function dataPlaneReadResponses<T extends TSchema | CsvAttachmentResponse>(ok: T) {
  return { 200: { ...ok, headers: { ...ok.headers, ...ROUTED_READ_RESPONSE_HEADERS } }, ...errorResponses() } as { 200: T } & ErrorResponses;
}

/** The same for a write whose answer carries its `Raffle-Read-After` token (when reads may go to a replica). */
export function dataPlaneWriteResponses<T extends TSchema>(status: 200 | 201, ok: T) {
  return { [status]: { ...ok, headers: WRITE_RESPONSE_HEADERS }, ...errorResponses() } as Record<typeof status, T> & ErrorResponses;
}

/** Documented once under components.headers (service-kit's standard headers); each response refers to it. */
const ROUTED_READ_RESPONSE_HEADERS = { 'Raffle-Staleness-Ms': { type: 'integer' } };
const WRITE_RESPONSE_HEADERS = { 'Raffle-Read-After': { type: 'string' } };

/** The request header a routed read accepts: a write's token, so the read sees that write wherever it runs. */
export const RoutedReadHeaders = Type.Object({
  'raffle-read-after': Type.Optional(
    Type.String({
      pattern: '^[0-9A-Fa-f]{1,8}/[0-9A-Fa-f]{1,8}$',
      description:
        'The `Raffle-Read-After` token of an earlier write (entering, withdrawing): this read then sees that write, whichever instance answers it. ' +
        "The key owner's own writes are seen without it on the instance that took them. `@raffle/sdk` sends the latest token it saw.",
      examples: ['0/16B3748'],
    }),
  ),
});

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
