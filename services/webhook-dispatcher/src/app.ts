import { isConnectionError, type Database } from '@raffle/db';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DestinationStream } from 'pino';
import {
  databasePlugin,
  healthPlugin,
  loggerOptions,
  managementErrorBody as errorBody,
  metricsPlugin,
  natsPlugin,
  notFoundPlugin,
  openApiPlugin,
  requestIdOf,
  requestIdPlugin,
  httpServerOptions,
  limitConnections,
  shutdownPlugin,
  storableTextPlugin,
} from '@raffle/service-kit';
import { DISPATCHER_OPENAPI } from './openapi-document.js';
import type { Config } from './config.js';
import dispatcherPlugin, { type DispatcherDependencies } from './plugins/dispatcher.js';

export type AppDependencies = DispatcherDependencies & {
  database?: Database;
  logStream?: DestinationStream;
};

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/** The dispatcher's process: its loops (plugins/dispatcher.ts) plus health, metrics and their OpenAPI. */
export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions({ level: config.LOG_LEVEL, stream: deps.logStream, pretty: process.stdout.isTTY && config.NODE_ENV === 'development' }),
    genReqId: requestIdOf,
    // The shutdown plugin answers 503 with this service's error body instead.
    return503OnClosing: false,
    ...httpServerOptions(config),
    // Fastify bounds preClose hooks by pluginTimeout (10 s by default) and then runs the onClose
    // hooks anyway: the database and NATS would close under a drain still waiting for its POSTs.
    pluginTimeout: Math.max(10_000, config.DRAIN_TIMEOUT_MS + 10_000),
    routerOptions: { ignoreTrailingSlash: true },
  });
  await app.register(
    fp(
      async (instance) => {
        instance.decorate('config', config);
      },
      { name: 'config' },
    ),
  );
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (request.is404) return app.answerUnmatched(request, reply);
    if (isConnectionError(error)) {
      request.log.error({ err: error }, 'dependency unavailable');
      return reply.status(503).header('retry-after', '1').send(errorBody(request, 503, 'a dependency is unavailable; retry shortly'));
    }
    const status = error.statusCode && error.statusCode < 500 ? 400 : 500;
    if (status === 500) request.log.error({ err: error }, 'unhandled error');
    return reply.status(status).send(errorBody(request, status, status === 500 ? 'internal error' : 'the request was rejected'));
  });
  await app.register(shutdownPlugin, { body: (request, status, message) => errorBody(request, status, message), drainMs: config.HTTP_SHUTDOWN_DRAIN_MS });
  await app.register(notFoundPlugin, { body: (request, status, message) => errorBody(request, status, message) });
  await app.register(requestIdPlugin);
  await app.register(storableTextPlugin);
  await app.register(databasePlugin, { url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'webhook-dispatcher', database: deps.database });
  await app.register(natsPlugin, { url: config.NATS_URL, name: 'webhook-dispatcher' });
  await app.register(openApiPlugin, {
    title: 'Raffle platform — webhook dispatcher',
    description:
      'Relays committed events from the outbox to NATS JetStream and delivers them as Standard-Webhooks-signed POSTs to the subscribed endpoints, with retries, auto-disable and every attempt recorded. It has no public API: over HTTP it serves only its liveness and readiness probes, Prometheus metrics and this document.',
    version: '1.0.0',
    securitySchemes: {},
    ...DISPATCHER_OPENAPI,
  });
  await app.register(healthPlugin);
  await app.register(metricsPlugin, { service: 'webhook-dispatcher' });
  await app.register(dispatcherPlugin, deps);
  await app.ready();
  limitConnections(app.server, config);
  return app;
}
