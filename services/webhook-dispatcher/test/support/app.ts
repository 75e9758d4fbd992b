import { randomBytes } from 'node:crypto';
import type { Database } from '@raffle/db';
import { inject } from 'vitest';
import { buildApp, type AppDependencies, type DispatcherApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { testLogStream } from './log-scan.js';

/**
 * Stream, subject prefix and consumer of this test only: files share one NATS server. Stream names
 * start with the run's tag, and the global teardown deletes them.
 */
export function isolatedStreamNames() {
  const tag = `${inject('natsRunTag')}_${randomBytes(4).toString('hex')}`;
  return { NATS_STREAM: `T_${tag}`, NATS_SUBJECT_PREFIX: `t${tag}.events`, NATS_CONSUMER: `dispatcher-${tag}` };
}

export function testConfig(url: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: url,
    LOG_LEVEL: 'trace',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    DELIVERY_POLL_INTERVAL_MS: '50',
    RELAY_POLL_INTERVAL_MS: '100',
    DELIVERY_TIMEOUT_MS: '2000',
    DRAIN_TIMEOUT_MS: '2000',
    ...overrides,
  });
}

export function buildTestApp(database: Database, url: string, overrides: Record<string, string> = {}, deps: AppDependencies = {}): Promise<DispatcherApp> {
  return buildApp(testConfig(url, overrides), { database, logStream: testLogStream, ...deps });
}
