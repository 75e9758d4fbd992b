import { PERSONAL_API_SCOPES, PERSONAL_WEBHOOK_EVENTS, WORKSPACE_API_SCOPES, WORKSPACE_WEBHOOK_EVENTS } from '@raffle/contracts';
import {
  describeFailures,
  documentedErrorCodeViolations,
  fuzzResponseViolations,
  openApiRequests,
  runFuzzCampaign,
  sampleRequests,
  warmUpConnections,
  type ErrorBodyCheck,
  type FuzzRequest,
  type FuzzResponse,
  type OpenApiDocument,
} from '@raffle/service-kit/testing/openapi-fuzz';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MANAGEMENT_STATUS_OF } from '../src/error-codes.js';
import { buildTestApp } from './support/app.js';
import { schemaErrors } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { claimsFor, hs256, tokenFor } from './support/jwt.js';
import { seedTenant, type Tenant } from './support/tenant.js';
import { LOCAL_SINK_CONFIG, LOCAL_URL } from './support/webhook-endpoints.js';

/**
 * Every operation of management's own OpenAPI document, fuzzed from its schemas (see
 * service-kit's openapi-fuzz): 10,000 requests, half of those to secured routes with the JWT of
 * the workspace's owner, naming ids that exist (seeded first, then those the fuzzed requests
 * create), so most reach the handlers and the database. While the database is up no answer is a
 * 5xx, and every error is the management error body whose every message starts with a code: one
 * its operation lists for that status, with that status in the catalogue. The seed is fixed: a failure names its
 * request index, reproducible as is.
 */
/** Fixed, so a failure reproduces; FUZZ_SEED explores other sequences by hand. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_902);
const REQUESTS = 10_000;
/** Ids learned from responses are kept to this many per name, so the seeded ones stay likely. */
const POOL_LIMIT = 40;

let db: TestDatabase;
let app: FastifyInstance;
let tenant: Tenant;
let ownerHeaders: Record<string, string>;
const known: Record<string, unknown[]> = {};

const remember = (name: string, value: unknown) => {
  const pool = (known[name] ??= []);
  if (typeof value === 'string' && pool.length < POOL_LIMIT && !pool.includes(value)) pool.push(value);
};

async function create(url: string, payload: unknown): Promise<Record<string, unknown>> {
  const res = await app.inject({ method: 'POST', url, headers: ownerHeaders, payload: payload as object });
  expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
  return res.json() as Record<string, unknown>;
}

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database);
  // Endpoint URLs on loopback, so creating one never waits on DNS for a fuzzed host name.
  app = await buildTestApp(db.database, db.url, LOCAL_SINK_CONFIG);
  await app.ready();
  await warmUpConnections(app, { connections: 4 });
  ownerHeaders = { authorization: `Bearer ${tokenFor(tenant.owner.id)}` };

  const ws = tenant.workspace.id;
  remember('workspaceId', ws);
  for (const user of [tenant.admin, tenant.member, tenant.outsider]) remember('userId', user.id);
  remember('projectId', (await create(`/api/dashboard/workspaces/${ws}/projects`, { slug: 'fuzz-project', name: 'Fuzz project' })).id);
  const raffle = (slug: string) => ({ slug, title: 'Fuzz raffle', mechanic: 'raffle', allocationType: 'airdrop', visibility: 'public', spots: 3 });
  for (const slug of [`fuzz-draft-${tenant.tag}`, `fuzz-open-${tenant.tag}`]) {
    const created = await create(`/api/dashboard/workspaces/${ws}/raffles`, raffle(slug));
    remember('raffleId', created.id);
    remember('slug', created.slug);
  }
  await create(`/api/dashboard/workspaces/${ws}/raffles/${known.raffleId![1]}/publish`, {});
  remember('keyId', (await create('/api/developer/personal/api-keys', { name: 'fuzz', scopes: [...PERSONAL_API_SCOPES] })).id);
  remember('keyId', (await create(`/api/developer/workspaces/${ws}/api-keys`, { name: 'fuzz', scopes: [...WORKSPACE_API_SCOPES] })).id);
  remember('endpointId', (await create('/api/developer/personal/webhook-endpoints', { url: LOCAL_URL, eventTypes: [PERSONAL_WEBHOOK_EVENTS[0]] })).id);
  remember('endpointId', (await create(`/api/developer/workspaces/${ws}/webhook-endpoints`, { url: LOCAL_URL, eventTypes: [WORKSPACE_WEBHOOK_EVENTS[0]] })).id);
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const errorBody: ErrorBodyCheck = (body) => {
  const violations = schemaErrors('ManagementErrorBody', body).map((e) => `ManagementErrorBody: ${e}`);
  if (body !== null && typeof body === 'object' && 'code' in body) violations.push('management error body carries a code');
  return violations;
};

/** Correctly signed tokens whose `sub` no user has and no column stores: NUL, a lone surrogate, 10 kB. */
const signedHostileSubject = fc
  .constantFrom('usr_\u0000', '\u0000', '\ud800', 'x'.repeat(10_000), '', ' ', '0')
  .map((sub) => ({ authorization: `Bearer ${hs256(claimsFor(sub))}` }));

/** What each creating route's answer adds to the pools of ids the next requests may name. */
const CREATED_IDS: Array<[RegExp, string]> = [
  [/^POST \/api\/dashboard\/workspaces$/, 'workspaceId'],
  [/\/raffles$/, 'raffleId'],
  [/\/projects$/, 'projectId'],
  [/\/api-keys(\/\{keyId\}\/roll)?$/, 'keyId'],
  [/\/webhook-endpoints$/, 'endpointId'],
];

function learnCreatedIds(request: FuzzRequest, response: FuzzResponse) {
  if (response.statusCode !== 201 || request.method !== 'POST') return;
  const body = JSON.parse(response.body) as { id?: unknown; slug?: unknown };
  for (const [operation, name] of CREATED_IDS) if (operation.test(request.operation)) remember(name, body.id);
  if (request.operation.endsWith('/raffles')) remember('slug', body.slug);
}

it(`answers ${REQUESTS} schema-fuzzed requests without a 5xx, every error in the management error body, its messages led by a documented code`, { timeout: 240_000 }, async () => {
  const document = app.swagger() as OpenApiDocument;
  const requests = openApiRequests(document, {
    credentials: () => fc.oneof({ arbitrary: fc.constant(ownerHeaders), weight: 9 }, { arbitrary: signedHostileSubject, weight: 1 }),
    knownValues: {
      ...known,
      url: [LOCAL_URL, 'http://127.0.0.1:9/other'],
      eventTypes: [[PERSONAL_WEBHOOK_EVENTS[0]], [WORKSPACE_WEBHOOK_EVENTS[0]], [...PERSONAL_WEBHOOK_EVENTS], [...WORKSPACE_WEBHOOK_EVENTS]],
      scopes: [[...PERSONAL_API_SCOPES], [...WORKSPACE_API_SCOPES]],
    },
  });

  const result = await runFuzzCampaign({
    requests: sampleRequests(requests, { seed: SEED, count: REQUESTS }),
    send: (request) => app.inject({ method: request.method as never, url: request.url, headers: request.headers, payload: request.payload }),
    // Beyond the body's shape: every message leads with a code, one the operation's document lists for that status.
    violations: (request, response) =>
      fuzzResponseViolations(response, {
        errorBody: (body, status) => [
          ...errorBody(body, status),
          ...documentedErrorCodeViolations(document, request, status, body, { messageCodeRequired: { statusOf: MANAGEMENT_STATUS_OF } }),
        ],
        inputs: [request.url, request.payload ?? ''],
      }),
    onResponse: learnCreatedIds,
  });

  console.log(`openapi-fuzz management: ${JSON.stringify({ seed: SEED, requests: result.requests, statuses: result.statuses })}`);
  expect(result.requests).toBe(REQUESTS);
  expect(result.failures.length, describeFailures(result.failures)).toBe(0);
});
