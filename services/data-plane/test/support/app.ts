import type { Database } from '@raffle/db';
import { localBeaconEnv } from '@raffle/service-kit/testing';
import { buildApp, type DataPlaneApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { dataPlaneTestEnv } from '../../src/testing/test-env.js';
import { testLogStream } from './log-scan.js';

export function testConfig(url: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({ ...dataPlaneTestEnv(url), ...localBeaconEnv(), ...overrides });
}

export function buildTestApp(database: Database, url: string, overrides: Record<string, string> = {}): Promise<DataPlaneApp> {
  return buildApp(testConfig(url, overrides), { database, logStream: testLogStream });
}
