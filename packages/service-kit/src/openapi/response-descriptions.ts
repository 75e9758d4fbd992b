import { operationsOf, type OpenApiDocumentJson } from './document-types.js';

/** What each status means on this platform, for responses whose route gave no description. */
const DESCRIPTION_BY_STATUS: Record<string, string> = {
  '200': 'The requested resource.',
  '201': 'Created: the new resource.',
  '202': 'Accepted: the work is queued and happens asynchronously.',
  '204': 'Done; no body.',
  '400': 'The request is malformed or invalid (URL, query, headers or body); nothing was done.',
  '401': 'The credentials are missing, unknown, expired or revoked.',
  '403': 'The credentials are valid but may not do this (wrong key type, missing scope, another workspace, or not a member with that role).',
  '404': 'The resource does not exist, or is not visible to these credentials.',
  '409': 'The request conflicts with the current state of the resource; nothing was done.',
  '422': 'The request is well formed but a business rule refuses it (for example unmet entry requirements).',
  '429': 'Too many requests: retry after `Retry-After` seconds.',
  '500': 'An unexpected error; the body carries no detail. Quote `requestId` when reporting it.',
  '503': 'A dependency is unavailable or did not answer in time, or this instance is shutting down: nothing was done; retry after `Retry-After` seconds.',
};

/** Fastify's placeholder for a response without a description. */
const PLACEHOLDER = 'Default Response';

/** Replaces every placeholder description with the status's meaning, so no response reads "Default Response". */
export function describeResponses(document: OpenApiDocumentJson) {
  for (const { operation } of operationsOf(document)) {
    for (const [status, response] of Object.entries<Record<string, unknown>>(operation.responses ?? {})) {
      if (response.description !== PLACEHOLDER && response.description) continue;
      const known = DESCRIPTION_BY_STATUS[status];
      if (!known) throw new Error(`${operation.operationId}: response ${status} needs a description`);
      response.description = known;
    }
  }
}
