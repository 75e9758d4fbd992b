import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newId, schema } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { dashboardRaffles, untilBeaconRound } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { registerSecret } from './support/log-scan.js';
import { seedTenant } from './support/tenant.js';
import { as, createEndpoint, freshOwners, LOCAL_SINK_CONFIG, type OwnerCase } from './support/webhook-endpoints.js';

/**
 * Every operation whose OpenAPI body is optional answers a body-less request as it answers `{}`,
 * however the body is left out: no body at all, the empty body `curl -X POST -H 'content-type:
 * application/json'` sends, or only whitespace. A malformed body is still 400 MALFORMED_JSON.
 */

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, LOCAL_SINK_CONFIG);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The operationIds whose request body the committed management document marks optional. */
function bodyOptionalOperations(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const document: any = JSON.parse(readFileSync(path.join(repoRoot, 'docs/openapi/management.json'), 'utf8'));
  return Object.values<Record<string, { operationId: string; requestBody?: { required?: boolean } }>>(document.paths)
    .flatMap((item) => Object.values(item))
    .filter((operation) => operation.requestBody && operation.requestBody.required !== true)
    .map((operation) => operation.operationId);
}

/** A fresh target for one request: where to send it, as whom, and the status that means it worked. */
type Target = { url: string; userId: string; status: number };

async function freshRaffles() {
  const tenant = await seedTenant(testDb.database);
  return { api: dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.owner.id), userId: tenant.owner.id };
}

async function rollTarget(base: (workspaceId: string) => string): Promise<Target> {
  const tenant = await seedTenant(testDb.database);
  const url = base(tenant.workspace.id);
  const created = await app.inject({ method: 'POST', url, headers: as(tenant.owner.id), payload: { name: 'ci', scopes: ['raffles:read'] } });
  expect(created.statusCode, created.body).toBe(201);
  registerSecret((created.json() as { apiKey: string }).apiKey);
  return { url: `${url}/${(created.json() as { id: string }).id}/roll`, userId: tenant.owner.id, status: 201 };
}

async function lifecycleTarget(action: string, status: string, raffleBody: Record<string, unknown> = {}): Promise<Target> {
  const { api, userId } = await freshRaffles();
  const draft = await api.draft(raffleBody);
  const raffle = status === 'draft' ? draft : await api.ok(draft.id, 'publish');
  if (status === 'closed' || status === 'drawn') {
    await api.entrants(raffle.slug, 1);
    // A draw target is posted to directly: its beacon round must be out by then.
    await untilBeaconRound(await api.ok(raffle.id, 'close'));
  }
  if (status === 'drawn') await api.ok(raffle.id, 'draw');
  return { url: `${api.raffleUrl(raffle.id)}/${action}`, userId, status: 200 };
}

/** A drawn raffle of one spot whose winner was disqualified, with a second entry to take the spot. */
async function rerollTarget(): Promise<Target> {
  const { api, userId } = await freshRaffles();
  const raffle = await api.open({ spots: 1 });
  await api.entrants(raffle.slug, 2);
  await api.ok(raffle.id, 'close');
  await api.ok(raffle.id, 'draw');
  const [winner] = await api.wins(raffle.id);
  const disqualified = await app.inject({
    method: 'POST',
    url: `${api.raffleUrl(raffle.id)}/entries/${winner!.entryId}/disqualify`,
    headers: as(userId),
    payload: { reason: 'Multiple accounts' },
  });
  expect(disqualified.statusCode, disqualified.body).toBe(200);
  const [win] = await api.wins(raffle.id, '?status=disqualified');
  return { url: `${api.raffleUrl(raffle.id)}/wins/${win!.id}/reroll`, userId, status: 200 };
}

async function enterAsMeTarget(): Promise<Target> {
  const { api } = await freshRaffles();
  const raffle = await api.open();
  const entrant = await api.user();
  return { url: `/api/dashboard/raffles/${raffle.slug}/entries`, userId: entrant.id, status: 201 };
}

async function endpointOwner(kind: 'personal' | 'workspace'): Promise<{ owner: OwnerCase; endpointUrl: string }> {
  const owner = (await freshOwners(testDb.database))[kind];
  const endpoint = await createEndpoint(app, owner);
  return { owner, endpointUrl: `${owner.base}/${endpoint.id}` };
}

async function retryTarget(kind: 'personal' | 'workspace'): Promise<Target> {
  const { owner, endpointUrl } = await endpointOwner(kind);
  const endpointId = endpointUrl.split('/').at(-1)!;
  const deliveryId = newId('webhookDelivery');
  const now = new Date();
  await testDb.database.db.insert(schema.webhookDeliveries).values({
    id: deliveryId,
    endpointId,
    eventId: newId('event'),
    eventType: 'entry.created',
    status: 'failed',
    attemptCount: 0,
    createdAt: now,
    updatedAt: now,
  });
  return { url: `${endpointUrl}/deliveries/${deliveryId}/retry`, userId: owner.userId, status: 202 };
}

const webhookTarget = (kind: 'personal' | 'workspace', action: 'rotate-secret' | 'test', status: number) => async (): Promise<Target> => {
  const { owner, endpointUrl } = await endpointOwner(kind);
  return { url: `${endpointUrl}/${action}`, userId: owner.userId, status };
};

/** One way to reach a fresh success for each body-optional operation. */
const TARGETS: Record<string, () => Promise<Target>> = {
  rollPersonalApiKey: () => rollTarget(() => '/api/developer/personal/api-keys'),
  rollWorkspaceApiKey: () => rollTarget((workspaceId) => `/api/developer/workspaces/${workspaceId}/api-keys`),
  publishRaffle: () => lifecycleTarget('publish', 'draft'),
  openRaffle: () => lifecycleTarget('open', 'scheduled', { startsAt: new Date(Date.now() + 3_600_000).toISOString(), endsAt: new Date(Date.now() + 7_200_000).toISOString() }),
  closeRaffle: () => lifecycleTarget('close', 'open'),
  drawRaffle: () => lifecycleTarget('draw', 'closed'),
  finalizeRaffle: () => lifecycleTarget('finalize', 'drawn'),
  cancelRaffle: () => lifecycleTarget('cancel', 'draft'),
  rerollWin: rerollTarget,
  enterRaffleAsMe: enterAsMeTarget,
  rotatePersonalWebhookEndpointSecret: webhookTarget('personal', 'rotate-secret', 200),
  testPersonalWebhookEndpoint: webhookTarget('personal', 'test', 202),
  retryPersonalWebhookDelivery: () => retryTarget('personal'),
  rotateWorkspaceWebhookEndpointSecret: webhookTarget('workspace', 'rotate-secret', 200),
  testWorkspaceWebhookEndpoint: webhookTarget('workspace', 'test', 202),
  retryWorkspaceWebhookDelivery: () => retryTarget('workspace'),
};

/** How a client leaves the body out: headers and the bytes sent. */
const BODY_LESS: Array<[string, Record<string, string>, string | undefined]> = [
  ['no body, no content-type', {}, undefined],
  ['no body, content-type: application/json', { 'content-type': 'application/json' }, undefined],
  ['an empty body labelled JSON', { 'content-type': 'application/json; charset=utf-8' }, ''],
  ['only whitespace labelled JSON', { 'content-type': 'application/json' }, ' \r\n\t'],
];

function send(target: Target, headers: Record<string, string>, payload: string | undefined) {
  return app.inject({ method: 'POST', url: target.url, headers: { ...as(target.userId), ...headers }, ...(payload === undefined ? {} : { payload }) });
}

describe('operations whose body may be omitted', () => {
  it('are the ones the OpenAPI document marks body-optional, each with a target below', () => {
    expect(bodyOptionalOperations().sort()).toEqual(Object.keys(TARGETS).sort());
  });

  describe.each(Object.keys(TARGETS))('%s', (operationId) => {
    it.each(BODY_LESS)('succeeds with %s', async (_how, headers, payload) => {
      const target = await TARGETS[operationId]!();
      const res = await send(target, headers, payload);
      expect(res.statusCode, res.body).toBe(target.status);
      if (operationId.startsWith('roll')) registerSecret((res.json() as { apiKey: string }).apiKey);
    });

    it('still refuses a malformed body 400 MALFORMED_JSON', async () => {
      const target = await TARGETS[operationId]!();
      for (const payload of ['{', 'nul', ' {} x']) {
        const body = expectManagementError(await send(target, { 'content-type': 'application/json' }, payload), 400);
        expect(String(body.message), payload).toMatch(/^MALFORMED_JSON: /);
      }
    });
  });
});
