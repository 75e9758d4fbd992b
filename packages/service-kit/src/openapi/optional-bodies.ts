import type { FastifySchema, RouteOptions } from 'fastify';
import { operationsOf, type OpenApiDocumentJson } from './document-types.js';

/** Carries a route's `optionalBody` config from the route to its operation; never left in the document. */
const OPTIONAL_BODY_MARK = 'x-optional-body';

/**
 * @fastify/swagger's per-route transform: it sees the route's config, the finishing steps only
 * the operation, so a route whose body may be omitted leaves a mark on its operation (swagger
 * copies every `x-` key of the schema).
 */
export function markOptionalBodyRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }) {
  if (!schema?.body || route.config?.optionalBody !== true) return { schema, url };
  return { schema: { ...schema, [OPTIONAL_BODY_MARK]: true }, url };
}

/**
 * @fastify/swagger marks every body required; a body the route lets the client omit is
 * `required: false`, so generated clients (openapi-typescript, hey-api) do not demand `body: {}`
 * and a validating proxy accepts the body-less request.
 */
export function documentOptionalBodies(document: OpenApiDocumentJson) {
  for (const { operation } of operationsOf(document)) {
    if (!(OPTIONAL_BODY_MARK in operation)) continue;
    delete operation[OPTIONAL_BODY_MARK];
    if (operation.requestBody) operation.requestBody.required = false;
  }
}
