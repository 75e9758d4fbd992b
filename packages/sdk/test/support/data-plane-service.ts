// The data plane's own test support (config, database clone, tenant), imported by path rather
// than as workspace packages: @raffle/data-plane and @raffle/demo depend on @raffle/sdk, and a
// devDependency back would make the workspace graph cyclic.
import { buildTestApp } from '../../../../services/data-plane/test/support/app.js';
import { createTestDatabase, type TestDatabase } from '../../../../services/data-plane/test/support/database.js';
import { seedTenant, type Tenant } from '../../../../services/data-plane/test/support/tenant.js';
export { createLifecycleWorld, type LifecycleWorld } from '../../../../services/data-plane/test/support/lifecycle.js';
export { disqualify, drawnAllowlistRaffle, finalizedWins, publishAllowlists, reroll } from '../../../../services/data-plane/test/support/allowlists.js';
import { DEFAULT_DEMO_BEACON, loadDemoDataset, type DemoKeys } from '../../../demo/src/index.js';
import { demoBeaconChain } from '../../../demo/src/plan/demo-beacon.js';
import { startBehindContractProxy } from './contract-check.js';

export type { Tenant, DemoKeys };

export type DataPlane = {
  /** Prism in front of the service (support/contract-check.ts): what the tests talk to. */
  baseUrl: string;
  /** The service itself, for a request that breaks the contract on purpose. */
  directUrl: string;
  testDb: TestDatabase;
  close(): Promise<void>;
};

/** A test database cloned from the run's migrated template. */
export const newTestDatabase = (): Promise<TestDatabase> => createTestDatabase();

/** Seeds a random tenant (see services/data-plane/test/support/tenant.ts) into `testDb`. */
export const seedDataPlaneTenant = (testDb: TestDatabase, options: Parameters<typeof seedTenant>[1] = {}): Promise<Tenant> =>
  seedTenant(testDb.database, options);

/**
 * The beacon the demo's draws mix in when it is loaded without a running beacon (its public demo
 * key), and the data plane setting that pins it, as `pnpm start` pins its own local beacon: a test
 * of demo proofs trusts the platform's chain the way a user of the demo does.
 */
export const DEMO_BEACON_CHAIN = demoBeaconChain(DEFAULT_DEMO_BEACON);
export const DEMO_BEACON_ENV = { BEACON_CHAIN: JSON.stringify(DEMO_BEACON_CHAIN) };

/** Loads the demo dataset (drawn raffles whose proofs verify) into `testDb`. */
export const loadDemo = (testDb: TestDatabase): Promise<DemoKeys> => loadDemoDataset(testDb.database.db);

/**
 * The data plane in-process on `testDb`, listening on a random loopback port, so the SDK talks
 * real HTTP to it, through Prism checking every exchange against the data plane's OpenAPI
 * document. `overrides` are config variables (e.g. a tiny rate limit).
 */
export async function startDataPlane(testDb: TestDatabase, overrides: Record<string, string> = {}): Promise<DataPlane> {
  const { service: app, directUrl, proxy } = await startBehindContractProxy('data-plane', async (port) => {
    const app = await buildTestApp(testDb.database, testDb.url, overrides);
    await app.listen({ host: '127.0.0.1', port });
    return app;
  });
  return {
    baseUrl: proxy.url,
    directUrl,
    testDb,
    close: async () => {
      try {
        await proxy.close();
      } finally {
        await app.close();
      }
    },
  };
}

/** Collects an async iterable (a PagedList walked with for await). */
export async function collectAll<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A fetch that records every URL it is asked for and passes it on to the real one. */
export function recordingFetch(): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: ((input: string | URL | Request, init?: RequestInit) => {
      urls.push(String(input));
      return globalThis.fetch(input, init);
    }) as typeof fetch,
  };
}
