import type { Database } from '@raffle/db';
import { buildApp, type DataPlaneApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { testLogStream } from './log-scan.js';

export function testConfig(url: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: url,
    LOG_LEVEL: 'trace',
    CURSOR_SECRET: 'test-cursor-secret-0123456789',
    RATE_LIMIT_PERSONAL_MAX: '100000',
    RATE_LIMIT_WORKSPACE_MAX: '100000',
    RATE_LIMIT_ANONYMOUS_MAX: '100000',
    RATE_LIMIT_PUBLIC_MAX: '100000',
    ...overrides,
  });
}

export function buildTestApp(database: Database, url: string, overrides: Record<string, string> = {}): Promise<DataPlaneApp> {
  return buildApp(testConfig(url, overrides), { database, logStream: testLogStream });
}
