import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { insertUser } from '@raffle/db';
import { createTestDatabase, type TestDatabase } from '@raffle/service-kit/testing';
// Imported here, at collection time, so its after-all check (no key material in the app's logs)
// is registered for every file that starts the service.
import '@raffle/service-kit/testing/log-scan';
import { RaffleManagementClient, type RaffleManagementClientOptions } from '../../src/management/index.js';
import { startBehindContractProxy } from './contract-check.js';

/** What these tests use of the management app: a real server on a port, and its OpenAPI document. */
export type ManagementApp = {
  listen(options: { host: string; port: number }): Promise<string>;
  server: { address(): AddressInfo | string | null };
  swagger(): unknown;
  close(): Promise<void>;
};

type Seeded = { id: string };
export type Tenant = { owner: Seeded; admin: Seeded; member: Seeded; outsider: Seeded; workspace: Seeded; otherWorkspace: Seeded };

/** The management service's own test support (config, tenant, JWT signing), so the service runs here exactly as its tests run it. */
type ManagementTestSupport = {
  buildTestApp(database: TestDatabase['database'], url: string, overrides?: Record<string, string>): Promise<ManagementApp>;
  seedTenant(database: TestDatabase['database']): Promise<Tenant>;
  tokenFor(userId: string): string;
  LOCAL_SINK_CONFIG: Record<string, string>;
  LOCAL_URL: string;
};

const supportFile = (name: string) => fileURLToPath(new URL(`../../../../services/management/test/support/${name}`, import.meta.url));

/**
 * Loaded by path at run time rather than imported: the sdk's type program must not take in a
 * service's sources, whose Fastify type augmentations clash with the data plane's (both run
 * here). The shapes used are declared above.
 */
async function loadSupport(): Promise<ManagementTestSupport> {
  const modules = await Promise.all(['app.ts', 'tenant.ts', 'jwt.ts', 'webhook-endpoints.ts'].map((name) => import(/* @vite-ignore */ supportFile(name))));
  return Object.assign({}, ...modules) as ManagementTestSupport;
}

export type ManagementService = {
  app: ManagementApp;
  testDb: TestDatabase;
  /** Prism in front of the service (support/contract-check.ts): what the tests talk to. */
  baseUrl: string;
  /** The service itself, for a request that breaks the contract on purpose. */
  directUrl: string;
  tenant: Tenant;
  /** A webhook URL on loopback that this app accepts. */
  localWebhookUrl: string;
  /** A client signed in as `userId`. */
  clientFor(userId: string, options?: Omit<RaffleManagementClientOptions, 'token'>): RaffleManagementClient;
  /** A fresh user with no workspace. */
  newUser(): Promise<{ id: string; handle: string }>;
  close(): Promise<void>;
};

/**
 * The management service in-process on a clone of the template database, listening on a random
 * loopback port (the SDK talks real HTTP to it, through Prism checking every exchange against the
 * management OpenAPI document), with a seeded tenant. Webhook endpoints on
 * 127.0.0.1 are allowed, as in the service's own webhook tests.
 */
export async function startManagement(overrides: Record<string, string> = {}): Promise<ManagementService> {
  const support = await loadSupport();
  const testDb = await createTestDatabase();
  const { service: app, directUrl, proxy } = await startBehindContractProxy('management', async (port) => {
    const app = await support.buildTestApp(testDb.database, testDb.url, { ...support.LOCAL_SINK_CONFIG, ...overrides });
    await app.listen({ host: '127.0.0.1', port });
    return app;
  });
  const baseUrl = proxy.url;
  const tenant = await support.seedTenant(testDb.database);
  return {
    app,
    testDb,
    baseUrl,
    directUrl,
    tenant,
    localWebhookUrl: support.LOCAL_URL,
    clientFor: (userId, options = {}) => new RaffleManagementClient({ token: support.tokenFor(userId), baseUrl, ...options }),
    newUser: () => insertUser(testDb.database.db, { handle: `sdk-${randomBytes(5).toString('hex')}`, createdAt: new Date('2020-01-01T00:00:00Z') }),
    close: async () => {
      try {
        await proxy.close();
      } finally {
        await app.close();
        await testDb.drop();
      }
    },
  };
}

export const uniqueSlug = (prefix = 'sdk') => `${prefix}-${randomBytes(5).toString('hex')}`;

/** Collects an async iterable (a PagedList walked with for await). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
