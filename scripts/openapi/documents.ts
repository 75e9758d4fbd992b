import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, unknown> };

/** The services whose OpenAPI documents are published, and the name each document is filed under. */
export const SERVICES = ['data-plane', 'management', 'webhook-dispatcher'] as const;
export type ServiceName = (typeof SERVICES)[number];

type Env = Record<string, string | undefined>;
/** What the export needs of a built service; its Fastify types stay the service's own. */
type ServiceApp = { ready(): Promise<unknown>; swagger(): unknown; close(): Promise<unknown> };
type ServiceModules = { app: { buildApp(config: unknown): Promise<ServiceApp> }; config: { loadConfig(env: Env): unknown } };

const servicesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../services');

/**
 * Loaded at run time, not imported: the export needs only `buildApp` and `loadConfig`, and the
 * root typecheck of scripts/ stays out of the three services' sources (each service's own
 * project typechecks them).
 */
async function buildService(service: ServiceName, env: Env): Promise<ServiceApp> {
  const load = (file: string) => import(pathToFileURL(path.join(servicesDir, service, 'src', file)).href);
  const modules = { app: await load('app.ts'), config: await load('config.ts') } as ServiceModules;
  return modules.app.buildApp(modules.config.loadConfig(env));
}

/**
 * Each service's OpenAPI document exactly as the running service serves it at /openapi.json:
 * the app is built and made ready (never listening), asked for its document, and closed. Ready
 * opens the database pool's listeners, so a reachable Postgres is needed (any database will do).
 */
export async function buildOpenApiDocument(service: ServiceName, databaseUrl: string): Promise<OpenApiDocument> {
  const app = await buildService(service, { NODE_ENV: 'test', DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  try {
    await app.ready();
    // The served JSON, not the live object: what a client downloads has no undefined members.
    return JSON.parse(JSON.stringify(app.swagger())) as OpenApiDocument;
  } finally {
    await app.close();
  }
}
