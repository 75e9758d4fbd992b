import { buildApp, loadConfig, type Config, type DataPlaneApp } from '@raffle/data-plane';
import type { Database } from '@raffle/db';
import { dataPlaneTestEnv } from '@raffle/data-plane/testing';
import { localBeaconEnv } from '@raffle/service-kit/testing';
import type { DestinationStream } from 'pino';

/** The data plane's app, built in-process on the same database: its test config, on this run's NATS. */
export async function buildDataPlaneApp(database: Database, url: string, logStream: DestinationStream, overrides: Partial<Config> = {}): Promise<DataPlaneApp> {
  const config = loadConfig({ ...dataPlaneTestEnv(url), ...localBeaconEnv(), NATS_URL: process.env.NATS_URL });
  return buildApp({ ...config, ...overrides }, { database, logStream });
}
