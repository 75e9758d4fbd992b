import type { Database } from '@raffle/db';
import { createCursorCodec, DomainError } from '@raffle/domain';
import { beaconOf, chainReaderPlugin, createServiceApp, idempotencyPlugin, trustProxyRule } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import { callerOf } from './decorations.js';
import { dataPlaneErrors } from './errors.js';
import pendingEntriesPlugin from './plugins/pending-entries.js';
import socialReaderPlugin from './plugins/social-reader.js';
import authPlugin, { API_PREFIX, PUBLIC_PREFIX, type AccessTableRow } from './plugins/auth.js';
import pageLimitPlugin from './plugins/page-limit.js';
import publicCorsPlugin from './plugins/public-cors.js';
import rateLimitPlugin from './plugins/rate-limit.js';
import readRoutingPlugin from './plugins/read-routing.js';
import revocationListenerPlugin from './plugins/revocation-listener.js';
import apiV1Routes from './routes/api-v1.js';
import { DATA_PLANE_OPENAPI } from './routes/openapi-document.js';
import publicAllowlistRoutes from './routes/public-allowlist/index.js';
import publicBeaconRoutes from './routes/public-beacon/index.js';
import publicCommitmentRoutes from './routes/public-commitment/index.js';
import publicDrawRoutes from './routes/public-draw/index.js';

export type AppDependencies = {
  /** A database pool to use instead of opening one from config (tests share one per file). */
  database?: Database;
  /** A read-replica pool to use instead of opening one from DATABASE_READ_URL (tests). */
  readDatabase?: Database;
  /** Where logs go instead of stdout. */
  logStream?: DestinationStream;
};

/** The built app, with what its callers (the tests) read of it. */
export type DataPlaneApp = FastifyInstance & {
  /** One row per /api/v1 route (auth plugin): the table the auth matrix tests are generated from. */
  readonly routeAccessTable: readonly AccessTableRow[];
};

/** The config loader too: an in-process data plane (management's tests) reads its defaults from it. */
export { loadConfig, type Config } from './config.js';

export const API_VERSION = '1.0.0';

/** Builds the data-plane app: the service kit, the data plane's plugins, then its routes. Never listens and never reads the environment. */
export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<DataPlaneApp> {
  const app = await createServiceApp({
    name: 'data-plane',
    config,
    errors: dataPlaneErrors,
    server: {
      bodyLimit: config.BODY_LIMIT_BYTES,
      trustProxy: trustProxyRule(config.TRUST_PROXY),
      // Long path values reach the route so its schema answers 400, rather than the router a 404.
      routerOptions: { maxParamLength: 512 },
      ajvOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true },
    },
    decorations: { cursors: createCursorCodec(config.CURSOR_SECRET, 'api'), beaconChain: beaconOf(config).chain },
    database: deps.database,
    logStream: deps.logStream,
    openApi: {
      title: 'Raffle Developer API — data plane',
      description:
        'Programmatic access to raffle data with API keys. Personal keys (`svc_u_`) reach the owner\'s profile, published raffles, the owner\'s entries and wins, entering (with `Idempotency-Key`) and withdrawing, draw proofs, and a winner\'s allowlist leaf and proof; workspace keys (`svc_w_`) reach one workspace\'s raffles, entries, winners, allowlists and projects. ' +
        'The proof of a drawn public raffle and its allowlist are also served without a key, cacheable, under `/public/v1`. Lists page with opaque keyset cursors; every error is one JSON body whose `code` each operation enumerates; every key is rate-limited (the `RateLimit` headers).',
      version: API_VERSION,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key> (preferred)' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
      ...DATA_PLANE_OPENAPI,
    },
  });
  await app.register(publicCorsPlugin);
  await app.register(authPlugin);
  await app.register(revocationListenerPlugin);
  await app.register(rateLimitPlugin);
  await app.register(pageLimitPlugin);
  await app.register(readRoutingPlugin, { readDatabase: deps.readDatabase });
  await app.register(chainReaderPlugin, { settings: config });
  await app.register(socialReaderPlugin);
  await app.register(pendingEntriesPlugin);
  // Keys are per API key (decision 0010); entries carry no secret, so answers are stored as sent.
  await app.register(idempotencyPlugin, {
    principalOf: (request) => callerOf(request)?.keyId ?? null,
    refusal: (code, message) => new DomainError(code, message),
  });

  await app.register(apiV1Routes, { prefix: API_PREFIX });
  await app.register(publicDrawRoutes, { prefix: PUBLIC_PREFIX });
  await app.register(publicBeaconRoutes, { prefix: PUBLIC_PREFIX });
  await app.register(publicCommitmentRoutes, { prefix: PUBLIC_PREFIX });
  await app.register(publicAllowlistRoutes, { prefix: PUBLIC_PREFIX });

  await app.ready();
  // The table is decorated by the auth plugin; the type says so for the app's callers.
  return app as DataPlaneApp;
}
