import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { as, dashboardRaffles, type DashboardRaffles } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { hs256, claimsFor } from './support/jwt.js';
import { capturedLogLines, registerSecret } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';
import { createEndpoint, freshOwners, LOCAL_SINK_CONFIG, PERSONAL_BASE } from './support/webhook-endpoints.js';

/**
 * The attacker's findings of issue 9, as tests: text Postgres cannot store and dates outside the
 * years it keeps were answered 500, and the failed write logged its parameters — a published
 * raffle's draw seed among them. Each is now a 400 decided at validation, and no log line holds
 * the seed.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let tenant: Tenant;
let api: DashboardRaffles;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, LOCAL_SINK_CONFIG);
  tenant = await seedTenant(testDb.database);
  api = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.owner.id);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const NUL = 'x\u0000y';
const LONE_SURROGATE = 'x\uD800y';

function expectBadInput(res: Awaited<ReturnType<FastifyInstance['inject']>>, pointer: RegExp) {
  const body = expectManagementError(res, 400);
  expect(String(body.message)).toMatch(pointer);
}

describe('a published raffle whose update fails', () => {
  it('answers a NUL title with 400 and never logs the draw seed', async () => {
    const raffle = await api.open({ title: 'Seeded' });
    const [row] = await testDb.database.sql<{ seed: string }[]>`select draw_seed as seed from raffles where id = ${raffle.id}`;
    const seed = registerSecret(row!.seed);

    const res = await app.inject({ method: 'PATCH', url: api.raffleUrl(raffle.id), headers: as(tenant.owner.id), payload: { title: NUL } });
    expectBadInput(res, /body\.title must not contain NUL/);
    expect(capturedLogLines.join('\n')).not.toContain(seed);
  });
});

describe('text Postgres cannot store is a 400 on every write that takes text', () => {
  const cases: Array<{ name: string; send: (text: string) => Promise<Awaited<ReturnType<FastifyInstance['inject']>>>; field: string }> = [
    { name: 'workspace create name', field: 'name', send: (text) => app.inject({ method: 'POST', url: '/api/dashboard/workspaces', headers: as(tenant.owner.id), payload: { slug: `ws-${Date.now()}`, name: text } }) },
    { name: 'workspace PATCH name', field: 'name', send: (text) => app.inject({ method: 'PATCH', url: `/api/dashboard/workspaces/${tenant.workspace.id}`, headers: as(tenant.owner.id), payload: { name: text } }) },
    { name: 'project create name', field: 'name', send: (text) => app.inject({ method: 'POST', url: `/api/dashboard/workspaces/${tenant.workspace.id}/projects`, headers: as(tenant.owner.id), payload: { slug: `p-${Date.now()}`, name: text } }) },
    { name: 'raffle create title', field: 'title', send: (text) => api.create({ title: text }) },
    { name: 'personal key name', field: 'name', send: (text) => app.inject({ method: 'POST', url: '/api/developer/personal/api-keys', headers: as(tenant.owner.id), payload: { name: text, scopes: ['raffles:read'] } }) },
    { name: 'webhook create description', field: 'description', send: (text) => app.inject({ method: 'POST', url: PERSONAL_BASE, headers: as(tenant.owner.id), payload: { url: 'http://127.0.0.1:9/hook', description: text, eventTypes: ['entry.created'] } }) },
  ];
  for (const { name, send, field } of cases) {
    it(`${name}: NUL and lone surrogates`, async () => {
      expectBadInput(await send(NUL), new RegExp(`body\\.${field} must not contain NUL`));
      expectBadInput(await send(LONE_SURROGATE), new RegExp(`body\\.${field} must be well-formed Unicode`));
    });
  }

  it('webhook PATCH description', async () => {
    const { personal } = await freshOwners(testDb.database);
    const endpoint = await createEndpoint(app, personal);
    const res = await app.inject({ method: 'PATCH', url: `${personal.base}/${endpoint.id}`, headers: as(personal.userId), payload: { description: NUL } });
    expectBadInput(res, /body\.description must not contain NUL/);
  });

  it('a NUL in a path parameter or a property name', async () => {
    expectBadInput(await app.inject({ method: 'GET', url: `${api.base()}/raf_%00`, headers: as(tenant.owner.id) }), /params\.raffleId must not contain NUL/);
    expectBadInput(await api.create({ 'ti\u0000tle': 'x' }), /property name that must not contain NUL/);
  });

  it('a validly signed JWT whose sub contains NUL is a 401, not a 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/developer/personal/api-keys', headers: { authorization: `Bearer ${registerSecret(hs256(claimsFor('usr_\u0000x')))}` } });
    expectManagementError(res, 401);
  });
});

describe('date-times outside the years Postgres keeps are a 400', () => {
  for (const startsAt of ['0000-06-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '10000-01-01T00:00:00Z', '+010000-01-01T00:00:00Z']) {
    it(`raffle create and PATCH with ${startsAt}`, async () => {
      expectBadInput(await api.create({ startsAt }), /body\.startsAt must match format "date-time"/);
      const draft = await api.draft();
      const patch = (payload: object) => app.inject({ method: 'PATCH', url: api.raffleUrl(draft.id), headers: as(tenant.owner.id), payload });
      expectBadInput(await patch({ startsAt }), /body\.startsAt must match format "date-time"/);
      expectBadInput(await patch({ endsAt: startsAt }), /body\.endsAt must match format "date-time"/);
    });
  }

  it('the first and last storable years are accepted', async () => {
    const draft = await api.draft();
    const res = await app.inject({ method: 'PATCH', url: api.raffleUrl(draft.id), headers: as(tenant.owner.id), payload: { startsAt: '9999-12-31T00:00:00Z', endsAt: '9999-12-31T23:59:59Z' } });
    expect(res.statusCode, res.body).toBe(200);
  });
});
