import type { Database } from '@raffle/db';
import { createServiceApp } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import { dispatcherErrors } from './errors.js';
import { DISPATCHER_OPENAPI } from './openapi-document.js';
import dispatcherPlugin, { type Dispatcher, type DispatcherDependencies } from './plugins/dispatcher.js';

export type AppDependencies = DispatcherDependencies & {
  database?: Database;
  logStream?: DestinationStream;
};

/** The built app, with what its callers (the tests) read of it. */
export type DispatcherApp = FastifyInstance & {
  /** The dispatcher's loops (plugins/dispatcher.ts). */
  readonly dispatcher: Dispatcher;
};

/** The dispatcher's process: its loops (plugins/dispatcher.ts) plus health, metrics and their OpenAPI. */
export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<DispatcherApp> {
  const app = await createServiceApp({
    name: 'webhook-dispatcher',
    config,
    errors: dispatcherErrors,
    server: {
      // Fastify bounds preClose hooks by pluginTimeout (10 s by default) and then runs the onClose
      // hooks anyway: the database and NATS would close under a drain still waiting for its POSTs.
      pluginTimeout: Math.max(10_000, config.DRAIN_TIMEOUT_MS + 10_000),
    },
    database: deps.database,
    logStream: deps.logStream,
    openApi: {
      title: 'Raffle platform — webhook dispatcher',
      description:
        'Relays committed events from the outbox to NATS JetStream and delivers them as Standard-Webhooks-signed POSTs to the subscribed endpoints, with retries, auto-disable and every attempt recorded. It has no public API: over HTTP it serves only its liveness and readiness probes, Prometheus metrics and this document.',
      version: '1.0.0',
      securitySchemes: {},
      ...DISPATCHER_OPENAPI,
    },
  });
  await app.register(dispatcherPlugin, deps);
  await app.ready();
  // The loops are decorated by their plugin; the type says so for the app's callers.
  return app as DispatcherApp;
}
