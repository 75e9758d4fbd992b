import { randomBytes } from 'node:crypto';
import { localChainEnv, localChainInfo } from '@raffle/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { as, dashboardRaffles, type DashboardRaffles } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

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

const UNKNOWN_ENTRY = 'ent_01JZZZZZZZZZZZZZZZZZZZZZZZ';
const resultsUrl = (raffleId: string, entryId: string, workspaceId = tenant.workspace.id) =>
  `/api/dashboard/workspaces/${workspaceId}/raffles/${raffleId}/entries/${entryId}/requirements`;
const getResults = (url: string, userId?: string) => app.inject({ method: 'GET', url, headers: userId ? as(userId) : {} });

/**
 * An open raffle with a required requirement every fresh user passes (account age, the helper's
 * users being from 2020) and an optional one they fail (no verified email), and one entrant with a
 * wallet: its verdicts are one pass and one fail.
 */
async function enteredRaffle() {
  const raffle = await api.open({
    requirements: [
      { id: 'age', type: 'account_age_days', label: 'Account older than a week', params: { min: 7 } },
      { id: 'email', type: 'email_verified', label: 'Verified email', params: { optional: true, multiplier: 2 } },
    ],
  });
  const address = `0x${randomBytes(20).toString('hex')}`;
  const entrant = await api.user({ wallets: [{ chain: 'ethereum', address, verified: true }] });
  const entered = await api.enter(raffle.slug, entrant.id);
  expect(entered.statusCode, entered.body).toBe(201);
  const ownersView = entered.json() as { id: string; requirements: unknown[] };
  return { raffle, entryId: ownersView.id, ownersView, address };
}

describe('GET …/entries/{entryId}/requirements', () => {
  it("answers an owner or admin each requirement's verdict, never evidence or a wallet", async () => {
    const { raffle, entryId, ownersView, address } = await enteredRaffle();
    for (const userId of [tenant.owner.id, tenant.admin.id]) {
      const res = await getResults(resultsUrl(raffle.id, entryId), userId);
      expect(res.statusCode, res.body).toBe(200);
      expectSchema('EntryRequirementResults', res.json());
      const body = res.json() as { entryId: string; status: string; requirements: Array<{ type: string; label: string; passed: boolean }> };
      expect(body.entryId).toBe(entryId);
      expect(body.status).toBe('valid');
      expect(body.requirements.map((r) => [r.type, r.label, r.passed])).toEqual([
        ['account_age_days', 'Account older than a week', true],
        ['email_verified', 'Verified email', false],
      ]);
      // What the entrant is told about their own entry, reduced to {type, label, passed}.
      expect(body.requirements).toEqual((ownersView.requirements as { type: string; label: string; passed: boolean }[]).map(({ type, label, passed }) => ({ type, label, passed })));
      expect(res.body).not.toMatch(/evidence/);
      expect(res.body.toLowerCase()).not.toContain(address.toLowerCase());
    }
  });

  it("never shows the entrant's balances: the owner's view has the detail, the workspace's is {type, label, passed}", async () => {
    // The run's local chain: an optional pass requirement nobody's fresh wallet meets, so the
    // entry is valid and its verdict carries what the wallet holds ("holds 0 …").
    const chainApp = await buildTestApp(testDb.database, testDb.url, localChainEnv());
    try {
      const chainApi = dashboardRaffles(chainApp, testDb.database, tenant.workspace.id, tenant.owner.id);
      const pass = { chain: 'anvil', contract: localChainInfo().contracts.erc721, standard: 'erc721', min: '1', optional: true, multiplier: 2 };
      const raffle = await chainApi.open({ requirements: [{ id: 'pass', type: 'token_balance', label: 'Holds a pass', params: pass }] });
      const entrant = await chainApi.user({ wallets: [{ chain: 'anvil', address: `0x${randomBytes(20).toString('hex')}`, verified: true }] });
      const entered = await chainApi.enter(raffle.slug, entrant.id);
      expect(entered.statusCode, entered.body).toBe(201);
      const own = entered.json() as { id: string; requirements: { detail?: string }[] };
      expect(own.requirements[0]!.detail).toMatch(/^holds 0 /);

      const res = await getResults(resultsUrl(raffle.id, own.id), tenant.owner.id);
      expect(res.statusCode, res.body).toBe(200);
      expectSchema('EntryRequirementResults', res.json());
      expect((res.json() as { requirements: unknown[] }).requirements).toEqual([{ type: 'token_balance', label: 'Holds a pass', passed: false }]);
      expect(res.body).not.toMatch(/holds|detail/);
    } finally {
      await chainApp.close();
    }
  });

  it('403 for a plain member, an outsider and an unknown workspace; 401 without a session', async () => {
    const { raffle, entryId } = await enteredRaffle();
    expect(expectManagementError(await getResults(resultsUrl(raffle.id, entryId), tenant.member.id), 403).message).toMatch(/^FORBIDDEN: /);
    expect(expectManagementError(await getResults(resultsUrl(raffle.id, entryId), tenant.outsider.id), 403).message).toMatch(/^FORBIDDEN: /);
    expectManagementError(await getResults(resultsUrl(raffle.id, entryId, tenant.otherWorkspace.id), tenant.owner.id), 403);
    expectManagementError(await getResults(resultsUrl(raffle.id, entryId)), 401);
  });

  it("404 for an unknown entry, another raffle's entry, and a raffle of another workspace", async () => {
    const { raffle, entryId } = await enteredRaffle();
    const other = await api.open();
    expect(expectManagementError(await getResults(resultsUrl(raffle.id, UNKNOWN_ENTRY), tenant.owner.id), 404).message).toMatch(/^ENTRY_NOT_FOUND: /);
    expect(expectManagementError(await getResults(resultsUrl(raffle.id, 'nope'), tenant.owner.id), 404).message).toMatch(/^ENTRY_NOT_FOUND: /);
    expect(expectManagementError(await getResults(resultsUrl(other.id, entryId), tenant.owner.id), 404).message).toMatch(/^ENTRY_NOT_FOUND: /);

    const theirs = dashboardRaffles(app, testDb.database, tenant.otherWorkspace.id, tenant.outsider.id);
    const foreign = await theirs.open();
    const foreignEntrant = await theirs.user();
    const foreignEntry = (await theirs.enter(foreign.slug, foreignEntrant.id)).json() as { id: string };
    // The owner of this workspace names the other workspace's raffle under their own: not found.
    expect(expectManagementError(await getResults(resultsUrl(foreign.id, foreignEntry.id), tenant.owner.id), 404).message).toMatch(/^RAFFLE_NOT_FOUND: /);
  });
});
