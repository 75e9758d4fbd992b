import { HTTP_METHODS, operationsOf, type JsonObject, type OpenApiDocumentJson } from './document-types.js';

/**
 * Operations that take no credentials (health, metrics, this document) say so with an empty
 * `security` list: without it a reader cannot tell "public" from "forgot to document the auth".
 */
export function markPublicOperations(document: OpenApiDocumentJson) {
  for (const { operation } of operationsOf(document)) operation.security ??= [];
  // Webhook requests are authenticated by their Standard Webhooks signature, not by a security scheme.
  for (const item of Object.values<JsonObject>(document.webhooks ?? {})) {
    for (const method of HTTP_METHODS) if (item[method]) item[method].security ??= [];
  }
}
