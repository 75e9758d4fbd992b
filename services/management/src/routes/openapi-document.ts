import { ERROR_CODES, type ErrorCode } from '@raffle/contracts';
import type { OpenApiFinish, OpenApiOperation } from '@raffle/service-kit';

/**
 * The codes a management message can lead with on any route: a rate-limit refusal, and the
 * database refusing input that validation let through (`CONFLICT: …`, `VALIDATION_FAILED: …`).
 * Routes add the domain codes they answer with `x-error-codes`. Most management messages carry
 * no code at all (validation, authentication, not found): the body has no `code` field (the
 * spec), so the codes are documented per response as `x-error-codes` rather than as a schema.
 */
function commonCodes(entry: OpenApiOperation): ErrorCode[] {
  const { path, method } = entry;
  if (!path.startsWith('/api/')) return [];
  const codes: ErrorCode[] = method === 'get' ? ['RATE_LIMITED'] : ['RATE_LIMITED', 'CONFLICT', 'VALIDATION_FAILED'];
  // The dashboard's workspace routes check membership and role first.
  if (path.startsWith('/api/dashboard/workspaces/{workspaceId}')) codes.push('FORBIDDEN');
  if (path.includes('{raffleId}')) codes.push('RAFFLE_NOT_FOUND');
  if (hasQuery(entry, 'limit')) codes.push('INVALID_LIMIT');
  if (hasQuery(entry, 'cursor')) codes.push('INVALID_CURSOR');
  return codes;
}

const hasQuery = ({ operation }: OpenApiOperation, name: string) =>
  (operation.parameters ?? []).some((p: { in: string; name: string }) => p.in === 'query' && p.name === name);

/**
 * Management answers domain codes with its own statuses, which stop at 409: requirements not met
 * (422 in the catalogue) is a conflict here (see plugins/errors.ts).
 */
const MANAGEMENT_STATUS_OF: Record<ErrorCode, number> = { ...ERROR_CODES, REQUIREMENTS_NOT_MET: 409 };

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
