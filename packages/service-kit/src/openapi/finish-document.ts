import { addExamples } from './examples.js';
import type { OpenApiDocumentJson } from './document-types.js';
import { documentErrorCodes, type ErrorCodeDocumentation } from './error-codes.js';
import { documentHeadOperations } from './head-operations.js';
import { pruneUnusedSchemas } from './prune-components.js';
import { documentOptionalBodies } from './optional-bodies.js';
import { markPublicOperations } from './public-operations.js';
import { describeResponses } from './response-descriptions.js';
import { documentStandardHeaders } from './standard-headers.js';

export type OpenApiTag = { name: string; description: string };
export type OpenApiServer = { url: string; description: string; variables?: Record<string, { default: string; description?: string; enum?: string[] }> };

/**
 * Listed first in every document, so /docs sends "Try it out" to the address its page was opened
 * at (127.0.0.1 or localhost alike), which the page's CSP allows as 'self'; an absolute first
 * server is cross-origin from the other name and refused. Relative to where the document is served.
 */
export const SAME_ORIGIN_SERVER: OpenApiServer = { url: '/', description: 'The server this document is served from (what /docs tries requests against).' };

export type OpenApiFinish = {
  /** Where the service runs, after SAME_ORIGIN_SERVER. */
  servers: OpenApiServer[];
  /** Every tag an operation uses, with what its operations are for. */
  tags: OpenApiTag[];
  errorCodes?: ErrorCodeDocumentation;
};

/**
 * What @fastify/swagger cannot derive from route schemas, applied to the generated document:
 * servers and tag descriptions, explicit `security: []` on public operations, bodies that may be
 * omitted marked not required, each operation's error codes, real response descriptions, the
 * standard response headers, an example on every parameter, body and response, HEAD operations
 * without bodies, and only the
 * schemas the document uses. Works on a copy, so the generated object is never changed twice.
 */
export function finishOpenApiDocument(generated: OpenApiDocumentJson, finish: OpenApiFinish): OpenApiDocumentJson {
  const document = structuredClone(generated);
  document.servers = [SAME_ORIGIN_SERVER, ...finish.servers];
  const pathItems = [...Object.values(document.paths), ...Object.values<Record<string, { tags?: string[] }>>(document.webhooks ?? {})];
  const used = new Set(pathItems.flatMap((item) => Object.values(item).flatMap((op) => op?.tags ?? [])));
  // A tag the service forgot to describe is still listed (redocly's tag-description rule flags it).
  const undescribed = [...used].filter((tag) => !finish.tags.some((t) => t.name === tag)).map((name) => ({ name }));
  document.tags = [...finish.tags.filter((tag) => used.has(tag.name)), ...undescribed];

  markPublicOperations(document);
  documentOptionalBodies(document);
  describeResponses(document);
  if (finish.errorCodes) documentErrorCodes(document, finish.errorCodes);
  documentStandardHeaders(document);
  const statusOf = finish.errorCodes?.statusOf ?? {};
  addExamples(document, { codeOfStatus: (status) => Object.keys(statusOf).find((code) => String(statusOf[code]) === status) });
  documentHeadOperations(document);
  pruneUnusedSchemas(document);
  return document;
}
