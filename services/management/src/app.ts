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
import { WEBHOOK_EVENT_SCHEMAS } from '@raffle/contracts';
import { createCursorCodec } from '@raffle/domain';
import type { Config } from './config.js';
import { codedErrorBody } from './error-codes.js';
import authPlugin from './plugins/auth.js';
import { clientErrorHandler } from './plugins/client-error.js';
import errorsPlugin, { frameworkErrorHandler } from './plugins/errors.js';
import capabilityRoutes from './routes/capabilities/index.js';
import { MANAGEMENT_OPENAPI } from './routes/openapi-document.js';
import eventTypeRoutes from './routes/event-types/index.js';
import personalApiKeyRoutes from './routes/personal-api-keys/index.js';
import workspaceApiKeyRoutes from './routes/workspace-api-keys/index.js';
import dashboardWorkspaceRoutes from './routes/dashboard-workspaces/index.js';
import dashboardProjectRoutes from './routes/dashboard-projects/index.js';
import dashboardRaffleRoutes from './routes/dashboard-raffles/index.js';
import raffleSchedulerPlugin from './plugins/raffle-scheduler.js';
import rateLimitPlugin from './plugins/rate-limit.js';
import webhookEndpointRoutes from './routes/webhook-endpoints/index.js';
import { openApiWebhooks } from './webhook-events/openapi-webhooks.js';

export type AppDependencies = {
  /** A database pool to use instead of opening one from config (tests share one per file). */
  database?: Database;
  /** Where logs go instead of stdout. */
  logStream?: DestinationStream;
};

export const API_VERSION = '1.0.0';

/** Builds the management app: plugins, then routes. Never listens and never reads the environment. */
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
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    // Bodies are validated as sent: no coercion ("name": 5 is not a name) and no silent removal
    // of unknown fields (an extra field is a 400, not ignored).
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: true }, onCreate: restrictDateTimesToStorableYears },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(
    fp(
      async (instance) => {
        instance.decorate('config', config);
        instance.decorate('cursors', createCursorCodec(config.CURSOR_SECRET));
      },
      { name: 'config' },
    ),
  );
  await app.register(errorsPlugin);
  await app.register(shutdownPlugin, { body: (request, _status, message) => codedErrorBody(request, 'SERVICE_UNAVAILABLE', message), drainMs: config.HTTP_SHUTDOWN_DRAIN_MS });
  await app.register(notFoundPlugin, {
    body: (request, status, message) => codedErrorBody(request, status === 405 ? 'METHOD_NOT_ALLOWED' : 'ROUTE_NOT_FOUND', message),
  });
  await app.register(requestIdPlugin);
  await app.register(storableTextPlugin);
  await app.register(databasePlugin, {
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: 'management',
    database: deps.database,
  });
  await app.register(natsPlugin, { url: config.NATS_URL, name: 'management' });
  await app.register(openApiPlugin, {
    title: 'Raffle Developer API — management',
    description:
      'The dashboard\'s API, authenticated by the dashboard session JWT (API keys are refused). `/api/developer`: the scopes and webhook event types that can be chosen, personal and workspace API keys (create, list, revoke, roll) and webhook endpoints (create, edit, delete, rotate the secret, test, the delivery log, retry and recover). ' +
      '`/api/dashboard`: workspaces, members and projects, the raffle lifecycle (create, publish, open, close, draw, finalize, cancel), entries, wins, rerolls and deliveries, and entering as the signed-in user. The `webhooks` section describes the events sent to endpoints.',
    version: API_VERSION,
    securitySchemes: {
      dashboardJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Authorization: Bearer <dashboard session JWT>' },
    },
    webhooks: openApiWebhooks(),
    ...MANAGEMENT_OPENAPI,
  });
  // The payload schemas the `webhooks` section names: components of this document only.
  for (const schema of WEBHOOK_EVENT_SCHEMAS) app.addSchema(schema);
  await app.register(healthPlugin);
  await app.register(metricsPlugin, { service: 'management' });
  await app.register(authPlugin);
  await app.register(rateLimitPlugin);
  await app.register(raffleSchedulerPlugin);

  await app.register(capabilityRoutes);
  await app.register(eventTypeRoutes);
  await app.register(personalApiKeyRoutes);
  await app.register(workspaceApiKeyRoutes);
  await app.register(dashboardWorkspaceRoutes);
  await app.register(dashboardProjectRoutes);
  await app.register(dashboardRaffleRoutes);
  await app.register(webhookEndpointRoutes, { kind: 'personal' });
  await app.register(webhookEndpointRoutes, { kind: 'workspace' });

  await app.ready();
  limitConnections(app.server, config);
  return app;
}
