import type { ErrorCode } from '@raffle/contracts';
import { idempotencyErrorCodes, type OpenApiFinish, type OpenApiOperation } from '@raffle/service-kit';
import { MANAGEMENT_STATUS_OF } from '../error-codes.js';

/**
 * Codes any /api/ route can answer, all of them behind the session check: a refused session,
 * a bad URL or input, a rate limit, and the failures (500, 503) no route chooses.
 */
const EVERY_API_ROUTE: readonly ErrorCode[] = [
  'VALIDATION_FAILED',
  'MALFORMED_URL',
  'SESSION_TOKEN_MISSING',
  'SESSION_TOKEN_INVALID',
  'API_KEY_NOT_ACCEPTED',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];

/** What a route with a request body can answer about that body, and the database refusing it. */
const EVERY_BODY: readonly ErrorCode[] = ['MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'CONFLICT'];

/**
 * The codes an operation answers without its route naming them, derived from what it takes.
 * The management body has no `code` field (the spec): every message leads with one of these
 * (`SESSION_TOKEN_INVALID: …`), documented per response as `x-error-codes` rather than as a
 * schema. Routes add the domain codes they answer with `x-error-codes`.
 */
function commonCodes(entry: OpenApiOperation): ErrorCode[] {
  const { path, method } = entry;
  if (!path.startsWith('/api/')) return [];
  const codes: ErrorCode[] = [...EVERY_API_ROUTE];
  // A path value longer than the router's maxParamLength (or an empty one) matches no route at all.
  if (path.includes('{')) codes.push('ROUTE_NOT_FOUND');
  if (method !== 'get') codes.push(...EVERY_BODY);
  // The workspace routes check membership and role first.
  if (path.startsWith('/api/dashboard/workspaces/{workspaceId}') || path.startsWith('/api/developer/workspaces/{workspaceId}')) codes.push('FORBIDDEN');
  if (path.includes('{raffleId}')) codes.push('RAFFLE_NOT_FOUND');
  if (hasQuery(entry, 'limit')) codes.push('INVALID_LIMIT');
  if (hasQuery(entry, 'cursor')) codes.push('INVALID_CURSOR');
  codes.push(...idempotencyErrorCodes(entry));
  return codes;
}

const hasQuery = ({ operation }: OpenApiOperation, name: string) =>
  (operation.parameters ?? []).some((p: { in: string; name: string }) => p.in === 'query' && p.name === name);

/** What management's OpenAPI document says beyond its route schemas. */
export const MANAGEMENT_OPENAPI: OpenApiFinish = {
  servers: [
    { url: 'http://localhost:3001', description: 'A local management service (`pnpm start`; the default PORT).' },
    {
      url: 'https://{host}',
      description: "A deployed management service: replace the host with your deployment's.",
      variables: { host: { default: 'manage.raffle.example', description: 'The host name the management service is published under.' } },
    },
  ],
  tags: [
    { name: 'Capabilities', description: 'What can be chosen when creating keys and webhook endpoints: the API key scopes and the webhook event types.' },
    { name: 'Personal API keys', description: "The signed-in user's personal API keys (`svc_u_…`): create (the key is shown once), list, revoke, roll." },
    { name: 'Workspace API keys', description: "A workspace's API keys (`svc_w_…`), managed by its owners and admins: create, list, revoke, roll." },
    { name: 'Personal webhook endpoints', description: "The signed-in user's webhook endpoints: create (with a `whsec_` secret shown once), edit, delete, rotate the secret, send a test event, the delivery log, retry and recover deliveries." },
    { name: 'Workspace webhook endpoints', description: "A workspace's webhook endpoints, managed by its owners and admins: the same operations as the personal ones." },
    { name: 'Dashboard profile', description: "The signed-in user's own profile, as the data plane's `GET /api/v1/me` shows it." },
    {
      name: 'Dashboard wallets',
      description:
        "The signed-in user's wallets, proven by Sign-In with Ethereum (EIP-4361): ask a nonce, sign the message with any wallet (personal_sign; contract wallets through ERC-1271), link it; list and unlink.",
    },
    {
      name: 'Dashboard connections',
      description:
        "The signed-in user's Discord and X accounts, linked by OAuth 2.0 (authorization code with PKCE) for requirements read from them: start (the provider's consent URL), complete with what the provider sent back to the console, list, unlink (which revokes the grant at the provider). Tokens are sealed at rest and never shown.",
    },
    { name: 'Dashboard chains', description: 'The EVM chains this deployment reads (CHAIN_RPC_URLS): what on-chain requirements may name.' },
    { name: 'Dashboard workspaces', description: 'Workspaces the signed-in user belongs to: create, list, read and rename.' },
    { name: 'Dashboard members', description: "A workspace's members and their roles." },
    { name: 'Dashboard projects', description: "A workspace's projects, which group its raffles." },
    { name: 'Dashboard raffles', description: 'The raffle lifecycle (create, publish, open, close, draw, finalize, cancel) and the entries, wins, rerolls and deliveries of a raffle.' },
    { name: 'Dashboard entries', description: 'Entering a raffle, and withdrawing, as the signed-in user through the web.' },
    { name: 'Webhooks', description: 'The events this platform POSTs to registered webhook endpoints, signed per Standard Webhooks.' },
    { name: 'Operations', description: 'For operators and orchestrators: liveness and readiness probes, Prometheus metrics and this document.' },
  ],
  errorCodes: { statusOf: MANAGEMENT_STATUS_OF, commonCodes, carrier: 'message-prefix', errorBody: 'ManagementErrorBody' },
};
