import type { TSchema } from '@sinclair/typebox';

/**
 * The 503 every route may answer, as its OpenAPI shows it: the database is unreachable (every
 * connection-class failure maps here, within about a second), a statement ran past its bound (a
 * table locked for longer than a request may wait), or the instance is shutting down. Either way
 * the request did nothing and may be retried after `Retry-After` seconds.
 */
export function unavailableResponse(errorBody: TSchema): TSchema {
  return {
    ...errorBody,
    description: 'A dependency is unavailable or did not answer in time, or this instance is shutting down: nothing was done; retry after `Retry-After` seconds.',
    headers: { 'Retry-After': { type: 'integer', minimum: 1, description: 'Seconds to wait before retrying.' } },
  } as TSchema;
}
