import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Database, PoolMode } from '@raffle/db';
import Fastify, { type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { DestinationStream } from 'pino';
import { createClientErrorHandler } from './client-error.js';
import errorHandlerPlugin, { routerErrorHandler } from './errors/error-handler.js';
import type { ServiceErrors } from './errors/service-errors.js';
import { httpServerOptions, limitConnections, type HttpServerConfig } from './http-server-settings.js';
import { restrictDateTimesToStorableYears } from './input/storable-dates.js';
import { lazySerializerFactory } from './serialization/lazy-serializers.js';
import optionalBodyPlugin from './input/optional-body.js';
import storableTextPlugin from './input/storable-text.js';
import { loggerOptions } from './logging/logger-options.js';
import databasePlugin from './plugins/database.js';
import { DATABASE_AND_NATS_READINESS, databaseCheck, natsCheck } from './plugins/dependency-checks.js';
import healthPlugin, { type ReadinessCheck, type ReadinessDocumentation } from './plugins/health.js';
import metricsPlugin from './plugins/metrics.js';
import httpSpansPlugin from './tracing/http-spans.js';
import natsPlugin from './plugins/nats.js';
import notFoundPlugin, { type UnmatchedFallback } from './plugins/not-found.js';
import openApiPlugin, { type OpenApiDocumentOptions } from './plugins/openapi.js';
import requestIdPlugin, { requestIdOf } from './plugins/request-id.js';
import shutdownPlugin from './plugins/shutdown.js';

/**
 * What every service's config holds (its own ConfigSchema adds the rest). The database and NATS
 * settings are read only by a service that asks for those capabilities.
 */
export type ServiceConfig = HttpServerConfig & {
  NODE_ENV: string;
  LOG_LEVEL: string;
  DATABASE_URL?: string;
  DATABASE_POOL_SIZE?: number;
  /** From DatabasePoolSettings; session when absent. */
  DATABASE_POOL_MODE?: PoolMode;
  DATABASE_DIRECT_URL?: string;
  NATS_URL?: string;
};

/**
 * What a service asks of the kit beyond HTTP itself. The APIs and the dispatcher ask for all of
 * it; the console's server, which keeps no data and proxies bodies unread, for none.
 */
export type ServiceCapabilities = {
  /** A Postgres pool (`app.database`) from DATABASE_URL; readiness depends on it. */
  database: boolean;
  /** A NATS connection (`app.nats`) from NATS_URL; readiness reports it. */
  nats: boolean;
  /** The input rules for parsed JSON (input/): storable text, bodies that may be omitted. */
  parsedInput: boolean;
};

const ALL_CAPABILITIES: ServiceCapabilities = { database: true, nats: true, parsedInput: true };

/** Readiness checks of the service's own, after the database's and NATS's, and how its document words the probe. */
export type ServiceReadiness = { checks: readonly ReadinessCheck[]; documentation: ReadinessDocumentation };

/** The Fastify options a service sets itself; everything else is the kit's and the same for all. */
export type ServiceServerOptions = Pick<FastifyServerOptions, 'bodyLimit' | 'trustProxy' | 'pluginTimeout'> & {
  /** Joined to `ignoreTrailingSlash`, which every service has. */
  routerOptions?: Omit<NonNullable<FastifyServerOptions['routerOptions']>, 'ignoreTrailingSlash'>;
  /** Ajv's options for the route schemas; date-times are narrowed to storable years in every service. */
  ajvOptions?: Record<string, unknown>;
};

export type ServiceAppOptions<C extends ServiceConfig> = {
  /** Names the service in its metrics, its database connections and its NATS connection. */
  name: string;
  config: C;
  /** How the service words its error answers (errors/service-errors.ts). */
  errors: ServiceErrors;
  /** Every capability unless said otherwise. */
  capabilities?: Partial<ServiceCapabilities>;
  /** The service's OpenAPI document (/openapi.json, /docs); a service without one serves neither. */
  openApi?: OpenApiDocumentOptions;
  /** Checks of the service's own; without them readiness is the database's and NATS's. */
  readiness?: ServiceReadiness;
  /** Answers what no route matched before the 404/405 does (the console's single-page app). */
  unmatched?: UnmatchedFallback;
  server?: ServiceServerOptions;
  /**
   * The service's own instance decorations besides `config` (its cursor codec, say), decorated
   * with it before any other plugin runs. Services read them through typed accessors of their
   * own, not through `declare module 'fastify'`: that is global, and two services' types clash.
   */
  decorations?: Record<string, unknown>;
  /** A database pool to use instead of opening one from config (tests share one per file). */
  database?: Database;
  /** Where logs go instead of stdout (tests). */
  logStream?: DestinationStream;
};

/**
 * A service's Fastify instance, built the same way for every service: logging, request ids,
 * timeouts and connection limits, the error handler with the service's body (also for what the
 * router and Node's HTTP parser refuse), shutdown (503 in the service's body), 404/405, the
 * storable-text input rule, bodies that may be omitted (input/optional-body.ts), `config`, the
 * database and NATS, OpenAPI, health and metrics; the database, NATS, the input rules and OpenAPI
 * only for a service that asks for them. The service then registers its own plugins and its
 * prefixed route trees, and calls `ready`.
 */
export async function createServiceApp<C extends ServiceConfig>(options: ServiceAppOptions<C>) {
  const { config, errors, server = {} } = options;
  const capabilities = { ...ALL_CAPABILITIES, ...options.capabilities };
  const { routerOptions, ajvOptions, ...serverOptions } = server;
  const app = Fastify({
    logger: loggerOptions({ level: config.LOG_LEVEL, stream: options.logStream, pretty: process.stdout.isTTY && config.NODE_ENV === 'development' }),
    genReqId: requestIdOf,
    ...serverOptions,
    // The shutdown plugin answers 503 with this service's error body instead.
    return503OnClosing: false,
    ...httpServerOptions(config),
    ...(errors.parserFailure ? { frameworkErrors: routerErrorHandler(errors), clientErrorHandler: createClientErrorHandler(errors.parserFailure) } : {}),
    routerOptions: { ignoreTrailingSlash: true, ...routerOptions },
    ajv: { customOptions: ajvOptions ?? {}, onCreate: restrictDateTimesToStorableYears },
    // Response serializers compile on first use, once per process (serialization/lazy-serializers.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(
    fp(
      async (instance) => {
        const decorations: Record<string, unknown> = { config, ...options.decorations };
        for (const [name, value] of Object.entries(decorations)) instance.decorate(name, value);
      },
      { name: 'config' },
    ),
  );
  await app.register(errorHandlerPlugin, errors);
  await app.register(shutdownPlugin, {
    body: (request, _status, message) => errors.body(request, errors.statusOf.SERVICE_UNAVAILABLE, { code: 'SERVICE_UNAVAILABLE', message }),
    drainMs: config.HTTP_SHUTDOWN_DRAIN_MS,
  });
  await app.register(notFoundPlugin, {
    body: (request, status, message) => errors.body(request, status, { code: status === 405 ? 'METHOD_NOT_ALLOWED' : 'ROUTE_NOT_FOUND', message }),
    fallback: options.unmatched,
  });
  await app.register(requestIdPlugin);
  await app.register(httpSpansPlugin);
  if (capabilities.parsedInput) {
    await app.register(storableTextPlugin);
    await app.register(optionalBodyPlugin);
  }
  const checks: ReadinessCheck[] = [];
  if (capabilities.database) {
    // A pool given by the caller (tests) needs no settings to open one.
    const settings = options.database ? { url: '', poolSize: 0 } : databaseSettings(config);
    await app.register(databasePlugin, { ...settings, applicationName: options.name, database: options.database });
    checks.push(databaseCheck(app));
  }
  if (capabilities.nats) {
    await app.register(natsPlugin, { url: capabilitySetting(config, 'nats', 'NATS_URL'), name: options.name });
    checks.push(natsCheck(app));
  }
  if (options.openApi) await app.register(openApiPlugin, options.openApi);
  checks.push(...(options.readiness?.checks ?? []));
  await app.register(healthPlugin, { checks, documentation: options.readiness?.documentation ?? DATABASE_AND_NATS_READINESS });
  await app.register(metricsPlugin, { service: options.name });
  // Fastify creates the server with the app; its connection limit has no Fastify option.
  app.addHook('onReady', async () => limitConnections(app.server, config));
  return app;
}

function databaseSettings(config: ServiceConfig): { url: string; poolSize: number; poolMode?: PoolMode; directUrl?: string } {
  return {
    url: capabilitySetting(config, 'database', 'DATABASE_URL'),
    poolSize: capabilitySetting(config, 'database', 'DATABASE_POOL_SIZE'),
    poolMode: config.DATABASE_POOL_MODE,
    directUrl: config.DATABASE_DIRECT_URL,
  };
}

/**
 * A setting a capability needs. Every ConfigSchema that asks for the capability requires the
 * setting (or defaults it), so a missing one is a service built wrong: said at build time.
 */
function capabilitySetting<K extends 'DATABASE_URL' | 'DATABASE_POOL_SIZE' | 'NATS_URL'>(config: ServiceConfig, capability: string, name: K): NonNullable<ServiceConfig[K]> {
  const value = config[name];
  if (value === undefined) throw new Error(`createServiceApp: the ${capability} capability needs ${name} in the config`);
  return value as NonNullable<ServiceConfig[K]>;
}
