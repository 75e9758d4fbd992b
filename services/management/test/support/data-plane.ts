import type { Database } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';

/**
 * The data plane's app, built in-process on the same database. It is imported by a computed
 * specifier on purpose: a static import would pull the data plane's sources into this
 * package's typecheck, where its `declare module 'fastify'` augmentations (another `config`
 * type, `caller`, ...) collide with management's own. At run time it is the ordinary
 * `import { buildApp } from '@raffle/data-plane'`.
 */
type DataPlaneModule = {
  buildApp: (config: Record<string, unknown>, deps: { database: Database; logStream: DestinationStream }) => Promise<FastifyInstance>;
};

const DATA_PLANE = '@raffle/data-plane';

/** The data plane's config loader is not exported; these are its defaults, with test limits. */
const dataPlaneConfig = (url: string) => ({
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  PORT: 0,
  DATABASE_URL: url,
  DATABASE_POOL_SIZE: 5,
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  CURSOR_SECRET: 'test-cursor-secret-0123456789',
  LOG_LEVEL: 'trace',
  API_KEY_CACHE_TTL_MS: 1000,
  PUBLIC_RAFFLES_CACHE_TTL_MS: 1000,
  RATE_LIMIT_WINDOW_MS: 60_000,
  RATE_LIMIT_PERSONAL_MAX: 100_000,
  RATE_LIMIT_WORKSPACE_MAX: 100_000,
  RATE_LIMIT_ANONYMOUS_MAX: 100_000,
  RATE_LIMIT_PUBLIC_MAX: 100_000,
  RATE_LIMIT_PUBLIC_WINDOW_MS: 60_000,
  RATE_LIMIT_REDIS_TIMEOUT_MS: 250,
  RATE_LIMIT_REDIS_NAMESPACE: 'raffle-rl:',
  BODY_LIMIT_BYTES: 65_536,
  TRUST_PROXY: false,
  HTTP_HEADERS_TIMEOUT_MS: 10_000,
  HTTP_REQUEST_TIMEOUT_MS: 30_000,
  HTTP_KEEP_ALIVE_TIMEOUT_MS: 72_000,
  HTTP_SHUTDOWN_DRAIN_MS: 1000,
  HTTP_MAX_CONNECTIONS: 10_000,
});

export async function buildDataPlaneApp(
  database: Database,
  url: string,
  logStream: DestinationStream,
  overrides: Record<string, unknown> = {},
): Promise<FastifyInstance> {
  const { buildApp } = (await import(DATA_PLANE)) as DataPlaneModule;
  return buildApp({ ...dataPlaneConfig(url), ...overrides }, { database, logStream });
}
