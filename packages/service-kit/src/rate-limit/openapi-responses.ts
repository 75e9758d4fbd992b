import type { TSchema } from '@sinclair/typebox';
import { RATE_LIMIT_RESPONSE_HEADERS, RETRY_AFTER_RESPONSE_HEADER } from './ietf-headers.js';

type ResponseSchemas = Record<string | number, unknown>;

/**
 * A rate-limited route's responses as OpenAPI should show them: every response carries the
 * `RateLimit`/`RateLimit-Policy` headers, and a 429 (the service's error body, with
 * `Retry-After`) names the route's policies. The schemas are copied, never mutated: routes share them.
 */
export function withRateLimitResponses(responses: ResponseSchemas, policies: readonly string[], errorBodySchema: TSchema): ResponseSchemas {
  const documented: ResponseSchemas = {};
  for (const [status, schema] of Object.entries(responses)) {
    documented[status] = withHeaders(schema, RATE_LIMIT_RESPONSE_HEADERS);
  }
  const names = policies.map((p) => `\`${p}\``).join(', ');
  documented['429'] = withHeaders(
    { ...((responses['429'] as object | undefined) ?? errorBodySchema), description: `Too many requests: a rate-limit policy of this route (${names}) is exhausted; retry after \`Retry-After\` seconds.` },
    { ...RATE_LIMIT_RESPONSE_HEADERS, ...RETRY_AFTER_RESPONSE_HEADER },
  );
  return documented;
}

function withHeaders(schema: unknown, headers: Record<string, unknown>) {
  if (typeof schema !== 'object' || schema === null) return schema;
  const existing = (schema as { headers?: Record<string, unknown> }).headers;
  return { ...schema, headers: { ...existing, ...headers } };
}
