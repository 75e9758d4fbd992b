import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Database } from '@raffle/db';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DestinationStream } from 'pino';
import {
  databasePlugin,
  healthPlugin,
  loggerOptions,
  metricsPlugin,
  natsPlugin,
  notFoundPlugin,
  openApiPlugin,
  requestIdOf,
  requestIdPlugin,
  httpServerOptions,
  limitConnections,
  shutdownPlugin,
  restrictDateTimesToStorableYears,
  storableTextPlugin,
} from '@raffle/service-kit';
import type { Config } from './config.js';
import { createCursorCodec } from './domain/cursor.js';
import authPlugin from './plugins/auth.js';
import { clientErrorHandler } from './plugins/client-error.js';
import { errorBody } from './plugins/error-body.js';
import errorsPlugin, { frameworkErrorHandler } from './plugins/errors.js';
import idempotencyPlugin from './plugins/idempotency.js';
import pageLimitPlugin from './plugins/page-limit.js';
import rateLimitPlugin from './plugins/rate-limit.js';
import revocationListenerPlugin from './plugins/revocation-listener.js';
import entryRoutes from './routes/entries/index.js';
import meRoutes from './routes/me/index.js';
import { DATA_PLANE_OPENAPI } from './routes/openapi-document.js';
import publicDrawRoutes from './routes/public-draw/index.js';
import raffleRoutes from './routes/raffles/index.js';
import winRoutes from './routes/wins/index.js';
import workspaceProjectRoutes from './routes/workspace-projects/index.js';
import workspaceRaffleRoutes from './routes/workspace-raffles/index.js';

export type AppDependencies = {
  /** A database pool to use instead of opening one from config (tests share one per file). */
  database?: Database;
  /** Where logs go instead of stdout. */
  logStream?: DestinationStream;
};

export const API_VERSION = '1.0.0';

/** Builds the data-plane app: plugins, then routes. Never listens and never reads the environment. */
export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions({ level: config.LOG_LEVEL, stream: deps.logStream, pretty: process.stdout.isTTY && config.NODE_ENV === 'development' }),
    genReqId: requestIdOf,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    // The shutdown plugin answers 503 with this service's error body instead.
    return503OnClosing: false,
    ...httpServerOptions(config),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // Long path values reach the route so its schema answers 400, rather than the router a 404.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true }, onCreate: restrictDateTimesToStorableYears },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(
    fp(
      async (instance) => {
        instance.decorate('config', config);
      },
      { name: 'config' },
    ),
  );
  app.decorate('cursors', createCursorCodec(config.CURSOR_SECRET));
  await app.register(errorsPlugin);
  await app.register(shutdownPlugin, { body: (request, status, message) => errorBody(request, status, 'SERVICE_UNAVAILABLE', message), drainMs: config.HTTP_SHUTDOWN_DRAIN_MS });
  await app.register(notFoundPlugin, {
    body: (request, status, message) => errorBody(request, status, status === 405 ? 'METHOD_NOT_ALLOWED' : 'ROUTE_NOT_FOUND', message),
  });
  await app.register(requestIdPlugin);
  await app.register(storableTextPlugin);
  await app.register(databasePlugin, {
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: 'data-plane',
    database: deps.database,
  });
  await app.register(natsPlugin, { url: config.NATS_URL, name: 'data-plane' });
  await app.register(openApiPlugin, {
    title: 'Raffle Developer API — data plane',
    description:
      'Programmatic access to raffle data with API keys. Personal keys (`svc_u_`) reach the owner\'s profile, published raffles, the owner\'s entries and wins, entering (with `Idempotency-Key`) and withdrawing, and draw proofs; workspace keys (`svc_w_`) reach one workspace\'s raffles, entries, winners and projects. ' +
      'The proof of a drawn public raffle is also served without a key, cacheable, under `/public/v1`. Lists page with opaque keyset cursors; every error is one JSON body whose `code` each operation enumerates; every key is rate-limited (the `RateLimit` headers).',
    version: API_VERSION,
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key> (preferred)' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    },
    ...DATA_PLANE_OPENAPI,
  });
  await app.register(metricsPlugin, { service: 'data-plane' });
  await app.register(healthPlugin);
  await app.register(authPlugin);
  await app.register(revocationListenerPlugin);
  await app.register(rateLimitPlugin);
  await app.register(pageLimitPlugin);
  await app.register(idempotencyPlugin);

  await app.register(meRoutes);
  await app.register(raffleRoutes);
  await app.register(entryRoutes);
  await app.register(winRoutes);
  await app.register(workspaceRaffleRoutes);
  await app.register(workspaceProjectRoutes);
  await app.register(publicDrawRoutes);

  await app.ready();
  limitConnections(app.server, config);
  return app;
}
