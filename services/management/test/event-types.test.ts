import {
  PERSONAL_WEBHOOK_EVENTS,
  SHARED_SCHEMAS,
  WEBHOOK_EVENT_CATALOG,
  WEBHOOK_EVENT_SCHEMAS,
  WORKSPACE_WEBHOOK_EVENTS,
  type WebhookEventTypePage,
} from '@raffle/contracts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { hs256, claimsFor, tokenFor } from './support/jwt.js';
import { seedTenant, type Tenant } from './support/tenant.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

let testDb: TestDatabase;
let app: FastifyInstance;
let tenant: Tenant;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
  tenant = await seedTenant(testDb.database);
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const URL = '/api/developer/event-types';
const list = (headers: Record<string, string> = { authorization: `Bearer ${tokenFor(tenant.owner.id)}` }) => app.inject({ method: 'GET', url: URL, headers });

/** A validator that knows no schema but the one given: proof that a served schema stands alone. */
function standalone(schema: unknown) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema as object);
}

/** The contracts' own payload schemas, by `$id`, references and all. */
const contractAjv = new Ajv2020({ strict: false, allErrors: true });
addFormats(contractAjv);
for (const schema of [...SHARED_SCHEMAS, ...WEBHOOK_EVENT_SCHEMAS]) contractAjv.addSchema(schema as object);

const at = '2026-01-01T00:00:00.000Z';
const raffleItem = { id: 'raf_1', slug: 's', title: 'T', mechanic: 'raffle', allocationType: 'allowlist_gtd', visibility: 'public', status: 'open', spots: 2, canonicalProject: null };
const sanitizedEntry = { id: 'ent_1', raffleId: 'raf_1', raffleSlug: 's', status: 'valid', source: 'web', entryWeight: '1', requirements: [], createdAt: at, updatedAt: at };
const workspaceEntry = { id: 'ent_1', userId: 'usr_1', status: 'valid', source: 'web', entryWeight: '1', duplicateFlags: {}, createdAt: at, updatedAt: at };

/** Bodies each type must accept and refuse: the served schema and the contracts' must agree on every one. */
const samples: Array<[string, unknown, boolean]> = [
  ['webhook.test', { type: 'webhook.test', timestamp: at, data: { endpointId: 'whe_1', message: 'hi' } }, true],
  ['webhook.test', { type: 'webhook.test', timestamp: at, data: { endpointId: 'whe_1' } }, false],
  ['webhook.test', { type: 'raffle.drawn', timestamp: at, data: { endpointId: 'whe_1', message: 'hi' } }, false],
  ['raffle.drawn', { type: 'raffle.drawn', timestamp: at, data: raffleItem }, true],
  ['raffle.drawn', { type: 'raffle.drawn', timestamp: at, data: { ...raffleItem, canonicalProject: { id: 'prj_1', slug: 'p', name: 'P' } } }, true],
  ['raffle.drawn', { type: 'raffle.drawn', timestamp: at, data: { ...raffleItem, canonicalProject: { id: 'prj_1' } } }, false],
  ['raffle.drawn', { type: 'raffle.drawn', timestamp: 'yesterday', data: raffleItem }, false],
  ['raffle.drawn', { type: 'raffle.drawn', timestamp: at, data: raffleItem, id: 'evt_1' }, false],
  ['entry.created', { type: 'entry.created', timestamp: at, data: sanitizedEntry }, true],
  ['entry.created', { type: 'entry.created', timestamp: at, data: workspaceEntry }, true],
  ['entry.created', { type: 'entry.created', timestamp: at, data: { ...workspaceEntry, duplicateFlags: { ipReuse: 'x' } } }, false],
  ['entry.created', { type: 'entry.created', timestamp: at, data: { ...sanitizedEntry, userId: 'usr_1' } }, false],
];

describe('GET /api/developer/event-types', () => {
  it('lists every event type of the contracts\' catalogue in one page, each with a self-contained payload schema', async () => {
    const res = await list();
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as WebhookEventTypePage;
    expectSchema('WebhookEventTypePage', page);
    expect(page.pagination).toEqual({ nextCursor: null, hasMore: false });

    const expectedTypes = [...new Set([...WORKSPACE_WEBHOOK_EVENTS, ...PERSONAL_WEBHOOK_EVENTS])];
    expect(page.data.map((item) => item.type)).toEqual(expectedTypes);
    for (const item of page.data) {
      const entry = WEBHOOK_EVENT_CATALOG[item.type as keyof typeof WEBHOOK_EVENT_CATALOG];
      expect(item.description).toBe(entry.description);
      expect(item.audiences).toEqual([
        ...((PERSONAL_WEBHOOK_EVENTS as readonly string[]).includes(item.type) ? ['personal'] : []),
        ...((WORKSPACE_WEBHOOK_EVENTS as readonly string[]).includes(item.type) ? ['workspace'] : []),
      ]);
      expect(JSON.stringify(item.schema)).not.toContain('$ref');
      expect(item.schema).toMatchObject({ type: 'object', required: ['type', 'timestamp', 'data'], properties: { type: { const: item.type } } });
      expect(() => standalone(item.schema)).not.toThrow();
    }
  });

  it('serves schemas that accept and refuse exactly what the contracts\' schemas do', async () => {
    const page = (await list()).json() as WebhookEventTypePage;
    for (const [type, body, valid] of samples) {
      const served = page.data.find((item) => item.type === type)!;
      const payloadId = String((WEBHOOK_EVENT_CATALOG[type as keyof typeof WEBHOOK_EVENT_CATALOG].payload as { $id: string }).$id);
      expect(standalone(served.schema)(body), `${type} served ${JSON.stringify(body)}`).toBe(valid);
      expect(contractAjv.getSchema(payloadId)!(body), `${type} contract ${JSON.stringify(body)}`).toBe(valid);
    }
  });

  it('refuses a missing, malformed or wrongly signed session with the management 401', async () => {
    expectManagementError(await list({}), 401);
    expectManagementError(await list({ authorization: 'Bearer not-a-jwt' }), 401);
    expectManagementError(await list({ authorization: `Bearer ${hs256(claimsFor(tenant.owner.id), 'another-secret-0123456789-0123456789')}` }), 401);
  });

  it('answers other methods with 405 and the management body', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url: URL, headers: { authorization: `Bearer ${tokenFor(tenant.owner.id)}` } });
      expectManagementError(res, 405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents the route and one webhook per event type whose body is the payload component', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json() as {
      paths: Record<string, Record<string, { operationId?: string }>>;
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> }; parameters: Array<{ name: string; in: string; required: boolean }>; responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.paths[URL]?.get?.operationId).toBe('listWebhookEventTypes');
    expect(Object.keys(document.webhooks)).toEqual(Object.keys(WEBHOOK_EVENT_CATALOG));
    for (const [type, item] of Object.entries(document.webhooks)) {
      const payloadId = String((WEBHOOK_EVENT_CATALOG[type as keyof typeof WEBHOOK_EVENT_CATALOG].payload as { $id: string }).$id);
      expect(item.post.requestBody.content['application/json']!.schema.$ref).toBe(`#/components/schemas/${payloadId}`);
      expect(document.components.schemas[payloadId]).toBeDefined();
      const headers = item.post.parameters.filter((p) => p.in === 'header');
      expect(headers.filter((p) => p.required).map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      // Sent only when the platform runs with tracing on.
      expect(headers.filter((p) => !p.required).map((p) => p.name)).toEqual(['traceparent']);
      expect(Object.keys(item.post.responses)).toEqual(['2XX']);
    }
  });
});
