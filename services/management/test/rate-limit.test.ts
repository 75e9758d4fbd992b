import { randomBytes } from 'node:crypto';
import { metricValue, policyNames, policyParams, randomRateLimitNamespace } from '@raffle/service-kit/testing/rate-limit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { registerSecret } from './support/log-scan.js';
import { as, createEndpoint, freshOwners, LOCAL_SINK_CONFIG, type OwnerCase } from './support/webhook-endpoints.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CAPABILITIES = '/api/developer/capabilities';

let db: TestDatabase;
const apps: FastifyInstance[] = [];

/** Two instances on one Redis namespace of their own (so the count can cross them), with small limits. */
async function twoInstances(overrides: Record<string, string>): Promise<[FastifyInstance, FastifyInstance]> {
  const config = { REDIS_URL, RATE_LIMIT_REDIS_NAMESPACE: randomRateLimitNamespace('management'), ...LOCAL_SINK_CONFIG, ...overrides };
  const pair = [await buildTestApp(db.database, db.url, config), await buildTestApp(db.database, db.url, config)] as [FastifyInstance, FastifyInstance];
  apps.push(...pair);
  return pair;
}

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await db?.drop();
});

/** A 429 as the spec has it: the management body, its message led by the code, Retry-After and the headers. */
function expectRateLimited(res: Awaited<ReturnType<FastifyInstance['inject']>>, policy: string) {
  const body = expectManagementError(res, 429);
  expect(String(body.message)).toMatch(new RegExp(`^RATE_LIMITED: the "${policy}" limit`));
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(policyParams(res.headers.ratelimit, policy)?.r).toBe(0);
  expect(policyParams(res.headers['ratelimit-policy'], policy)).toBeDefined();
}

describe('the per-user bucket', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  let owners: { personal: OwnerCase };
  let other: { personal: OwnerCase };

  beforeAll(async () => {
    [a, b] = await twoInstances({ RATE_LIMIT_USER_MAX: '3', RATE_LIMIT_ANONYMOUS_MAX: '2' });
    owners = await freshOwners(db.database);
    other = await freshOwners(db.database);
  });

  it('counts one user\'s requests across two instances and refuses the fourth with 429, the body and the IETF headers', async () => {
    const headers = as(owners.personal.userId);
    const seen: Array<{ status: number; r?: number }> = [];
    for (let i = 0; i < 4; i++) {
      const res = await [a, b][i % 2]!.inject({ url: CAPABILITIES, headers });
      expect(res.headers['ratelimit-policy']).toBe('"user";q=3;w=60');
      const params = policyParams(res.headers.ratelimit, 'user')!;
      expect(params.t).toBeGreaterThan(0);
      expect(params.t).toBeLessThanOrEqual(60);
      seen.push({ status: res.statusCode, r: params.r });
      if (i === 3) expectRateLimited(res, 'user');
    }
    expect(seen).toEqual([
      { status: 200, r: 2 },
      { status: 200, r: 1 },
      { status: 200, r: 0 },
      { status: 429, r: 0 },
    ]);
  });

  it('leaves another user\'s budget alone', async () => {
    const res = await a.inject({ url: CAPABILITIES, headers: as(other.personal.userId) });
    expect(res.statusCode).toBe(200);
    expect(policyParams(res.headers.ratelimit, 'user')?.r).toBe(2);
  });

  it('counts requests without a valid session per IP, bad tokens included, and refused ones still get their 401 first', async () => {
    const from = (remoteAddress: string, headers: Record<string, string> = {}) => a.inject({ url: CAPABILITIES, remoteAddress, headers });
    const first = await from('10.7.0.1');
    expectManagementError(first, 401);
    expect(first.headers['ratelimit-policy']).toBe('"user";q=2;w=60');
    expectManagementError(await from('10.7.0.1', { authorization: 'Bearer not.a.jwt' }), 401);
    expectRateLimited(await from('10.7.0.1'), 'user');
    expectManagementError(await from('10.7.0.2'), 401);
  });

  it('does not limit or label health, metrics and the OpenAPI document', async () => {
    for (const url of ['/health/live', '/metrics', '/openapi.json', '/health/live', '/metrics']) {
      const res = await a.inject({ url, remoteAddress: '10.7.0.9' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBeUndefined();
    }
  });

  it('reports shared (not degraded) counting in its metrics', async () => {
    expect(await metricValue(a, 'rate_limit_store_degraded')).toBe(0);
  });
});

describe('webhook test sends and retries: per endpoint', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  let owner: OwnerCase;
  let ownerWorkspace: OwnerCase;
  let stranger: OwnerCase;

  beforeAll(async () => {
    [a, b] = await twoInstances({ RATE_LIMIT_WEBHOOK_SEND_MAX: '10' });
    ({ personal: owner, workspace: ownerWorkspace } = await freshOwners(db.database));
    stranger = (await freshOwners(db.database)).personal;
  });

  const testSend = (app: FastifyInstance, who: OwnerCase, endpointId: string, userId = who.userId) =>
    app.inject({ method: 'POST', url: `${who.base}/${endpointId}/test`, headers: as(userId) });

  it('answers the 11th test send to one endpoint within the window 429, counted across instances; other endpoints and users keep their budget', async () => {
    const endpoint = await createEndpoint(a, owner);
    const second = await createEndpoint(a, owner);
    for (let i = 0; i < 10; i++) {
      const res = await testSend([a, b][i % 2]!, owner, endpoint.id);
      expect(res.statusCode, res.body).toBe(202);
      expect(policyNames(res.headers['ratelimit-policy'])).toEqual(['user', 'webhook-send']);
      expect(policyParams(res.headers['ratelimit-policy'], 'webhook-send')).toEqual({ q: 10, w: 60 });
      expect(policyParams(res.headers.ratelimit, 'webhook-send')?.r).toBe(9 - i);
    }
    expectRateLimited(await testSend(b, owner, endpoint.id), 'webhook-send');
    // Retries of that endpoint's deliveries share its budget: both are POSTs to the same third party.
    const retry = await a.inject({ method: 'POST', url: `${owner.base}/${endpoint.id}/deliveries/whd_01JZZZZZZZZZZZZZZZZZZZZZZZ/retry`, headers: as(owner.userId) });
    expectRateLimited(retry, 'webhook-send');

    expect((await testSend(a, owner, second.id)).statusCode).toBe(202);
    const strangers = await createEndpoint(a, stranger);
    expect((await testSend(a, stranger, strangers.id)).statusCode).toBe(202);
  });

  it('counts a workspace endpoint under the workspace, whichever admin sends', async () => {
    const endpoint = await createEndpoint(a, ownerWorkspace);
    for (let i = 0; i < 10; i++) expect((await testSend(a, ownerWorkspace, endpoint.id)).statusCode).toBe(202);
    expectRateLimited(await testSend(b, ownerWorkspace, endpoint.id), 'webhook-send');
  });

  it('does not let a stranger spend a personal endpoint\'s budget: they spend their own', async () => {
    const endpoint = await createEndpoint(a, owner);
    for (let i = 0; i < 10; i++) expectManagementError(await testSend(a, owner, endpoint.id, stranger.userId), 404);
    expectRateLimited(await testSend(a, owner, endpoint.id, stranger.userId), 'webhook-send');
    const res = await testSend(a, owner, endpoint.id);
    expect(res.statusCode).toBe(202);
    expect(policyParams(res.headers.ratelimit, 'webhook-send')?.r).toBe(9);
  });
});

describe('recover calls, key creation and endpoint creation', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    [a, b] = await twoInstances({ RATE_LIMIT_WEBHOOK_RECOVER_MAX: '2', RATE_LIMIT_KEY_CREATE_MAX: '3', RATE_LIMIT_WEBHOOK_ENDPOINT_CREATE_MAX: '2' });
  });

  it('allows two recover calls per endpoint and window', async () => {
    const { personal } = await freshOwners(db.database);
    const endpoint = await createEndpoint(a, personal);
    const recover = (app: FastifyInstance, endpointId = endpoint.id) =>
      app.inject({ method: 'POST', url: `${personal.base}/${endpointId}/recover`, headers: as(personal.userId), payload: { since: new Date(Date.now() - 3_600_000).toISOString() } });
    expect((await recover(a)).statusCode).toBe(202);
    const second = await recover(b);
    expect(second.statusCode).toBe(202);
    expect(policyParams(second.headers.ratelimit, 'webhook-recover')?.r).toBe(0);
    expectRateLimited(await recover(a), 'webhook-recover');
    const other = await createEndpoint(a, personal);
    expect((await recover(a, other.id)).statusCode).toBe(202);
  });

  it('counts personal and workspace key creations and rolls together per user', async () => {
    const { personal, workspace } = await freshOwners(db.database);
    const create = async (app: FastifyInstance, url: string, scopes: string[]) => {
      const res = await app.inject({ method: 'POST', url, headers: as(personal.userId), payload: { name: `ci-${randomBytes(2).toString('hex')}`, scopes } });
      if (res.statusCode === 201) registerSecret((res.json() as { apiKey: string }).apiKey);
      return res;
    };
    const personalKeys = '/api/developer/personal/api-keys';
    const workspaceId = workspace.base.split('/')[4]!;
    const workspaceKeys = `/api/developer/workspaces/${workspaceId}/api-keys`;
    const first = await create(a, personalKeys, ['profile:read']);
    expect(first.statusCode, first.body).toBe(201);
    expect((await create(b, workspaceKeys, ['raffles:read'])).statusCode).toBe(201);
    const roll = await a.inject({ method: 'POST', url: `${personalKeys}/${(first.json() as { id: string }).id}/roll`, headers: as(personal.userId) });
    expect(roll.statusCode, roll.body).toBe(201);
    registerSecret((roll.json() as { apiKey: string }).apiKey);
    expectRateLimited(await create(b, personalKeys, ['profile:read']), 'key-create');
    expectRateLimited(await create(a, workspaceKeys, ['raffles:read']), 'key-create');
    // Reading keys is not creating them.
    expect((await a.inject({ url: personalKeys, headers: as(personal.userId) })).statusCode).toBe(200);
    const someoneElse = (await freshOwners(db.database)).personal.userId;
    const theirs = await a.inject({ method: 'POST', url: personalKeys, headers: as(someoneElse), payload: { name: 'ci', scopes: ['profile:read'] } });
    expect(theirs.statusCode).toBe(201);
    registerSecret((theirs.json() as { apiKey: string }).apiKey);
  });

  it('counts personal and workspace webhook endpoint creations together per user', async () => {
    const { personal, workspace } = await freshOwners(db.database);
    await createEndpoint(a, personal);
    await createEndpoint(b, workspace);
    const third = await a.inject({ method: 'POST', url: personal.base, headers: as(personal.userId), payload: { url: 'http://127.0.0.1:9/hooks/raffle', eventTypes: [personal.ownEvent] } });
    expectRateLimited(third, 'webhook-endpoint-create');
  });
});

describe('the OpenAPI document', () => {
  type Operation = {
    operationId: string;
    parameters?: Array<{ in: string; name: string }>;
    responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
  };
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    const [a] = await twoInstances({});
    paths = (await a.inject({ url: '/openapi.json' })).json().paths;
  });

  const operations = () => Object.entries(paths).flatMap(([path, methods]) => Object.values(methods).map((op) => ({ path, op })));

  it('declares 429 with Retry-After and the RateLimit headers on every /api/developer and /api/dashboard operation, and the RateLimit headers on its other responses', () => {
    const limited = operations().filter(({ path }) => path.startsWith('/api/developer') || path.startsWith('/api/dashboard'));
    expect(limited.length).toBeGreaterThan(30);
    for (const { op } of limited) {
      const tooMany = op.responses['429'];
      expect(tooMany, op.operationId).toBeDefined();
      // A route taking an Idempotency-Key documents Idempotent-Replayed on every answer it may store, as the data plane's does.
      const takesKey = (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      const expected = ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id', ...(takesKey ? ['Idempotent-Replayed'] : [])].sort();
      expect(Object.keys(tooMany!.headers ?? {}).sort(), op.operationId).toEqual(expected);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.headers, `${op.operationId} ${status}`).toHaveProperty('RateLimit');
        expect(response.headers, `${op.operationId} ${status}`).toHaveProperty('RateLimit-Policy');
      }
    }
  });

  it('names each route\'s tight bucket in its 429', () => {
    const byId = new Map(operations().map(({ op }) => [op.operationId, op]));
    const expectations: Record<string, string> = {
      testPersonalWebhookEndpoint: 'webhook-send',
      retryWorkspaceWebhookDelivery: 'webhook-send',
      recoverPersonalWebhookDeliveries: 'webhook-recover',
      createWorkspaceApiKey: 'key-create',
      rollPersonalApiKey: 'key-create',
      createPersonalWebhookEndpoint: 'webhook-endpoint-create',
      publishRaffle: 'raffle-publish',
    };
    for (const [operationId, bucket] of Object.entries(expectations)) {
      expect(byId.get(operationId)?.responses['429']?.description, operationId).toContain(`\`${bucket}\``);
    }
  });

  it('leaves operations routes without a 429', () => {
    const health = operations().filter(({ path }) => path.startsWith('/health') || path === '/metrics');
    expect(health.length).toBeGreaterThan(0);
    for (const { op } of health) expect(op.responses['429']).toBeUndefined();
  });
});
