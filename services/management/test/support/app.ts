import type { Database } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { testLogStream } from './log-scan.js';

export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789-abcdefghijklmnop';

export function testConfig(url: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: url,
    LOG_LEVEL: 'debug',
    JWT_SECRET: TEST_JWT_SECRET,
    ...overrides,
  });
}

export function buildTestApp(database: Database, url: string, overrides: Record<string, string> = {}): Promise<FastifyInstance> {
  return buildApp(testConfig(url, overrides), { database, logStream: testLogStream });
}
