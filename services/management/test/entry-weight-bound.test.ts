import { MAX_ENTRY_WEIGHT } from '@raffle/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { as, dashboardRaffles, type DashboardRaffles } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * Issue 34: eight optional requirements of multiplier 100 were accepted, and every entrant meeting
 * them weighed 10^16, past the weight's numeric(20,6): the entry failed with a numeric overflow.
 * The multipliers of one raffle multiply to at most MAX_ENTRY_WEIGHT, checked when it takes them.
 */

let testDb: TestDatabase;
let app: ManagementApp;
let tenant: Tenant;
let api: DashboardRaffles;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
  tenant = await seedTenant(testDb.database);
  api = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.owner.id);
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const boosts = (count: number, multiplier: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `boost-${i}`, type: 'email_verified', label: `Boost ${i}`, params: { optional: true, multiplier } }));

describe('the multipliers of a raffle multiply to at most MAX_ENTRY_WEIGHT', () => {
  it('refuses a create whose multipliers multiply past it: 400 VALIDATION_FAILED saying the product and the bound', async () => {
    const message = expectManagementError(await api.create({ requirements: boosts(8, 100) }), 400).message as string;
    expect(message).toMatch(/^VALIDATION_FAILED: /);
    expect(message).toContain(`multiply to 10000000000000000; an entry may weigh at most ${MAX_ENTRY_WEIGHT}`);
  });

  it('accepts multipliers whose product is exactly the bound', async () => {
    expect(MAX_ENTRY_WEIGHT).toBe(100 ** 3);
    const res = await api.create({ requirements: boosts(3, 100) });
    expect(res.statusCode).toBe(201);
  });

  it('refuses an update that brings them past it, and keeps the raffle as it was', async () => {
    const draft = await api.draft({ requirements: boosts(3, 100) });
    const res = await app.inject({ method: 'PATCH', url: api.raffleUrl(draft.id), headers: as(tenant.owner.id), payload: { requirements: boosts(4, 100) } });
    expect(expectManagementError(res, 400).message).toMatch(/^VALIDATION_FAILED: the multipliers of the optional requirements multiply to 100000000;/);
    const kept = await app.inject({ method: 'GET', url: api.raffleUrl(draft.id), headers: as(tenant.owner.id) });
    expect((kept.json() as { requirements: unknown[] }).requirements).toHaveLength(3);
  });
});
