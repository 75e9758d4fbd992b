import { insertUser } from '@raffle/db';
import { localChainEnv, localChainInfo } from '@raffle/service-kit/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { as, dashboardRaffles, type DashboardRaffles } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { registerSecret } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * An on-chain requirement must name a chain this platform reads (CHAIN_RPC_URLS): otherwise no
 * entry could ever be evaluated, and every one would wait `pending` for good (decision 0027).
 */

let testDb: TestDatabase;
let app: ManagementApp;
let tenant: Tenant;
let api: DashboardRaffles;

beforeAll(async () => {
  testDb = await createTestDatabase();
  // No chain configured: whatever chain a requirement names, it is not read here.
  app = await buildTestApp(testDb.database, testDb.url, { CHAIN_RPC_URLS: '' });
  tenant = await seedTenant(testDb.database);
  api = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.owner.id);
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const onChain = (chain: string) => [
  { id: 'pass', type: 'token_balance', label: 'Holds a pass', params: { chain, contract: `0x${'ab'.repeat(20)}`, standard: 'erc721', min: '1' } },
  { id: 'gas', type: 'native_balance', label: 'Has gas', params: { chain, min: '1000' } },
];

describe('on-chain requirements name a configured chain', () => {
  it('refuses a create naming an unconfigured chain: 400 VALIDATION_FAILED naming each requirement', async () => {
    const message = expectManagementError(await api.create({ requirements: onChain('nowhere') }), 400).message as string;
    expect(message).toMatch(/^VALIDATION_FAILED: /);
    expect(message).toContain('requirements[0].params.chain "nowhere" is not a chain this platform reads');
    expect(message).toContain('requirements[1].params.chain "nowhere" is not a chain this platform reads');
  });

  it('refuses an update that brings one in, and keeps the raffle as it was', async () => {
    const draft = await api.draft({ requirements: [] });
    const res = await app.inject({
      method: 'PATCH',
      url: api.raffleUrl(draft.id),
      headers: as(tenant.owner.id),
      payload: { requirements: onChain('nowhere') },
    });
    expect(expectManagementError(res, 400).message).toMatch(/^VALIDATION_FAILED: requirements\[0\]\.params\.chain/);
  });
});

describe('web entries read the chain as API entries do', () => {
  let chainApp: ManagementApp;
  let chainApi: DashboardRaffles;
  beforeAll(async () => {
    // The run's local chain: management reads it for web entries and checks requirements against it.
    chainApp = await buildTestApp(testDb.database, testDb.url, localChainEnv());
    chainApi = dashboardRaffles(chainApp, testDb.database, tenant.workspace.id, tenant.owner.id);
  });
  afterAll(() => chainApp?.close());

  it('accepts a requirement on a configured chain, and refuses a non-holder naming what was found, never the wallet', async () => {
    const pass = { id: 'pass', type: 'token_balance', label: 'Holds a pass', params: { chain: 'anvil', contract: localChainInfo().contracts.erc721, standard: 'erc721', min: '1' } };
    const raffle = await chainApi.open({ requirements: [pass] });
    // A wallet nobody minted to: it holds nothing.
    const wallet = registerSecret(privateKeyToAccount(generatePrivateKey()).address);
    const user = await insertUser(testDb.database.db, { handle: `holder-${Date.now()}`, wallets: [{ chain: 'anvil', address: wallet, verified: true }] });
    const res = await chainApi.enter(raffle.slug, user.id);
    const message = expectManagementError(res, 409).message as string;
    expect(message).toMatch(/^REQUIREMENTS_NOT_MET: /);
    expect(message).toContain('Holds a pass: holds 0 Nebula Pass, needs 1');
    expect(res.body.toLowerCase()).not.toContain(wallet.slice(2).toLowerCase());
  });
});
