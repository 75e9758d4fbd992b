import { buildApp, loadConfig, type Config, type DataPlaneApp } from '@raffle/data-plane';
import type { Database } from '@raffle/db';
import type { DestinationStream } from 'pino';

/** The data plane's app, built in-process on the same database: its defaults, with test limits. */
export async function buildDataPlaneApp(database: Database, url: string, logStream: DestinationStream, overrides: Partial<Config> = {}): Promise<DataPlaneApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: url,
    NATS_URL: process.env.NATS_URL,
    LOG_LEVEL: 'trace',
    CURSOR_SECRET: 'test-cursor-secret-0123456789',
    RATE_LIMIT_PERSONAL_MAX: '100000',
    RATE_LIMIT_WORKSPACE_MAX: '100000',
    RATE_LIMIT_ANONYMOUS_MAX: '100000',
    RATE_LIMIT_PUBLIC_MAX: '100000',
  });
  return buildApp({ ...config, ...overrides }, { database, logStream });
}
