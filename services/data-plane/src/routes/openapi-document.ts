import { ERROR_CODES, type ErrorCode } from '@raffle/contracts';
import { idempotencyErrorCodes, type OpenApiFinish, type OpenApiOperation } from '@raffle/service-kit';

/** Codes any route under /api/v1 can answer: authentication, input checks, rate limits, failures. */
const EVERY_API_ROUTE: readonly ErrorCode[] = [
  'VALIDATION_FAILED',
  'MALFORMED_URL',
  'API_KEY_MISSING',
  'API_KEY_INVALID',
  'API_KEY_EXPIRED',
  'API_KEY_REVOKED',
  'WRONG_KEY_TYPE',
  'INSUFFICIENT_SCOPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];

/** Public routes take no key, so answer none of the key codes. */
const EVERY_PUBLIC_ROUTE: readonly ErrorCode[] = ['VALIDATION_FAILED', 'MALFORMED_URL', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];

const hasParameter = ({ operation }: OpenApiOperation, where: string, name: string) =>
  (operation.parameters ?? []).some((p: { in: string; name: string }) => p.in === where && p.name.toLowerCase() === name.toLowerCase());

/**
 * The codes an operation answers without its route naming them, derived from what it takes: a
 * path value can be too long for the router, a workspace key's workspace must match the path, a
 * page query can carry a bad `limit`/`cursor`, a body can be malformed JSON or conflict with a
 * row, and an `Idempotency-Key` can be malformed, reused or still in flight. Routes add their own
 * with `x-error-codes`.
 */
function commonCodes(entry: OpenApiOperation): ErrorCode[] {
  if (!entry.path.startsWith('/api/v1/') && !entry.path.startsWith('/public/')) return [];
  const codes: ErrorCode[] = entry.path.startsWith('/public/') ? [...EVERY_PUBLIC_ROUTE] : [...EVERY_API_ROUTE];
  // A path value longer than the router's maxParamLength matches no route at all.
  if (entry.path.includes('{')) codes.push('ROUTE_NOT_FOUND');
  if (entry.path.startsWith('/public/')) return codes;
  if (entry.path.startsWith('/api/v1/workspaces/')) codes.push('WORKSPACE_MISMATCH');
  if (hasParameter(entry, 'query', 'limit')) codes.push('INVALID_LIMIT');
  if (hasParameter(entry, 'query', 'cursor')) codes.push('INVALID_CURSOR');
  if (entry.method !== 'get') codes.push('MALFORMED_JSON', 'CONFLICT');
  codes.push(...idempotencyErrorCodes(entry));
  return codes;
}

/** What the data plane's OpenAPI document says beyond its route schemas. */
export const DATA_PLANE_OPENAPI: OpenApiFinish = {
  servers: [
    { url: 'http://localhost:3000', description: 'A local data plane (`pnpm start`; the default PORT).' },
    {
      url: 'https://{host}',
      description: 'A deployed data plane: replace the host with your deployment\'s.',
      variables: { host: { default: 'api.raffle.example', description: 'The host name the data plane is published under.' } },
    },
  ],
  tags: [
    { name: 'Personal', description: "Personal API keys (`svc_u_…`): the key owner's profile, published raffles, entering and withdrawing, entries and wins, draw proofs, and a winner's allowlist proof and wallet." },
    { name: 'Workspace', description: "Workspace API keys (`svc_w_…`): one workspace's raffles, their entries, winners and allowlists, and its projects." },
    { name: 'Public', description: 'No credentials: what anyone may read, such as the proof of a public raffle\'s draw and its allowlist, also from a browser page on any origin (CORS).' },
    { name: 'Operations', description: 'For operators and orchestrators: liveness and readiness probes, Prometheus metrics and this document.' },
  ],
  errorCodes: { statusOf: ERROR_CODES, commonCodes, carrier: 'code-field', errorBody: 'ErrorBody' },
};
