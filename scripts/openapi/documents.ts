import type { FastifyInstance } from 'fastify';
import { buildApp as buildDataPlane } from '../../services/data-plane/src/app.js';
import { loadConfig as dataPlaneConfig } from '../../services/data-plane/src/config.js';
import { buildApp as buildManagement } from '../../services/management/src/app.js';
import { loadConfig as managementConfig } from '../../services/management/src/config.js';
import { buildApp as buildDispatcher } from '../../services/webhook-dispatcher/src/app.js';
import { loadConfig as dispatcherConfig } from '../../services/webhook-dispatcher/src/config.js';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, unknown> };

/** The services whose OpenAPI documents are published, and the name each document is filed under. */
export const SERVICES = ['data-plane', 'management', 'webhook-dispatcher'] as const;
export type ServiceName = (typeof SERVICES)[number];

type Env = Record<string, string | undefined>;
const builders: Record<ServiceName, (env: Env) => Promise<FastifyInstance>> = {
  'data-plane': (env) => buildDataPlane(dataPlaneConfig(env)),
  management: (env) => buildManagement(managementConfig(env)),
  'webhook-dispatcher': (env) => buildDispatcher(dispatcherConfig(env)),
};

/**
 * Each service's OpenAPI document exactly as the running service serves it at /openapi.json:
 * the app is built and made ready (never listening), asked for its document, and closed. Ready
 * opens the database pool's listeners, so a reachable Postgres is needed (any database will do).
 */
export async function buildOpenApiDocument(service: ServiceName, databaseUrl: string): Promise<OpenApiDocument> {
  const app = await builders[service]({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  try {
    await app.ready();
    // The served JSON, not the live object: what a client downloads has no undefined members.
    return JSON.parse(JSON.stringify(app.swagger())) as OpenApiDocument;
  } finally {
    await app.close();
  }
}
