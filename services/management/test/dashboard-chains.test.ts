import { localChainEnv } from '@raffle/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { as } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { capturedLogLines, registerSecret } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let testDb: TestDatabase;
let tenant: Tenant;
const apps: ManagementApp[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  tenant = await seedTenant(testDb.database);
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await testDb?.drop();
});

/** A management app reading these chains. Port 9 (discard) on loopback: nothing answers JSON-RPC there. */
async function appReading(chainRpcUrls: string): Promise<ManagementApp> {
  const app = await buildTestApp(testDb.database, testDb.url, { CHAIN_RPC_URLS: chainRpcUrls, CHAIN_RPC_TIMEOUT_MS: '500', CHAIN_RPC_RETRIES: '0' });
  apps.push(app);
  return app;
}

// The scan after the file fails it if any log line holds the path, which stands for a provider's key.
const DOWN_RPC = `http://127.0.0.1:9/${registerSecret('rpc-key-0b1c2d3e4f')}`;

describe('GET /api/dashboard/chains', () => {
  it('lists the configured chains in order, each with the chain id its RPC answers, null for one that does not answer', async () => {
    const app = await appReading(`${localChainEnv().CHAIN_RPC_URLS},down=${DOWN_RPC}`);
    const res = await app.inject({ method: 'GET', url: '/api/dashboard/chains', headers: as(tenant.member.id) });
    expect(res.statusCode, res.body).toBe(200);
    expectSchema('PlatformChainList', res.json());
    expect(res.json()).toEqual({ data: [{ name: 'anvil', chainId: 31337 }, { name: 'down', chainId: null }] });
    // The chain that did not answer is logged by name; its URL (which may carry a provider key) is not.
    expect(capturedLogLines.some((line) => line.includes('rpc-key-0b1c2d3e4f'))).toBe(false);
    expect(capturedLogLines.some((line) => line.includes('chain did not answer its chain id') && line.includes('"chain":"down"'))).toBe(true);
  });

  it('answers an empty list when no chain is configured, to any signed-in user', async () => {
    const app = await appReading('');
    const res = await app.inject({ method: 'GET', url: '/api/dashboard/chains', headers: as(tenant.outsider.id) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: [] });
  });

  it('401 without a session token', async () => {
    const app = await appReading('');
    expectManagementError(await app.inject({ method: 'GET', url: '/api/dashboard/chains' }), 401);
  });
});
