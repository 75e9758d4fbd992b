import type { Database } from '@raffle/db';
import { localBeaconEnv, localChainEnv } from '@raffle/service-kit/testing';
import { buildApp, type ManagementApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { testLogStream } from './log-scan.js';

export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789-abcdefghijklmnop';

export function testConfig(url: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: url,
    LOG_LEVEL: 'trace',
    JWT_SECRET: TEST_JWT_SECRET,
    // Tests send far more than a real user would; rate-limit tests set their own small limits.
    RATE_LIMIT_USER_MAX: '100000',
    RATE_LIMIT_ANONYMOUS_MAX: '100000',
    RATE_LIMIT_WEBHOOK_SEND_MAX: '100000',
    RATE_LIMIT_WEBHOOK_RECOVER_MAX: '100000',
    RATE_LIMIT_KEY_CREATE_MAX: '100000',
    RATE_LIMIT_WEBHOOK_ENDPOINT_CREATE_MAX: '100000',
    RATE_LIMIT_RAFFLE_PUBLISH_MAX: '100000',
    // The run's local beacon: closes fix rounds of its chain, as they would of drand's.
    ...localBeaconEnv(),
    // The run's local chain (anvil): wallet links name its chain id, contract wallets are checked on it.
    ...localChainEnv(),
    ...overrides,
  });
}

export function buildTestApp(database: Database, url: string, overrides: Record<string, string> = {}): Promise<ManagementApp> {
  return buildApp(testConfig(url, overrides), { database, logStream: testLogStream });
}
