import type { ChainReader } from '@raffle/chain';
import { WEBHOOK_EVENT_SCHEMAS } from '@raffle/contracts';
import type { Database } from '@raffle/db';
import { createCursorCodec, DomainError, type RaffleScheduler } from '@raffle/domain';
import { beaconOf, chainReaderPlugin, createServiceApp, idempotencyPlugin, trustProxyRule } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import { dashboardUserIdOf } from './decorations.js';
import { managementErrors } from './errors.js';
import authPlugin, { DASHBOARD_PREFIX, MANAGEMENT_PREFIX, type ManagedRoute } from './plugins/auth.js';
import beaconRoundsPlugin from './plugins/beacon-rounds.js';
import raffleSchedulerPlugin from './plugins/raffle-scheduler.js';
import walletLinksPlugin from './plugins/wallet-links.js';
import connectionsPlugin from './plugins/connections.js';
import socialReaderPlugin from './plugins/social-reader.js';
import rateLimitPlugin from './plugins/rate-limit.js';
import dashboardRoutes from './routes/dashboard.js';
import developerRoutes from './routes/developer.js';
import { MANAGEMENT_OPENAPI } from './routes/openapi-document.js';
import webhookEndpointRoutes from './routes/webhook-endpoints/index.js';
import { openApiWebhooks } from './webhook-events/openapi-webhooks.js';

export type AppDependencies = {
  /** A database pool to use instead of opening one from config (tests share one per file). */
  database?: Database;
  /** Where logs go instead of stdout. */
  logStream?: DestinationStream;
  /** The chain reader to use instead of one built from CHAIN_RPC_URLS (tests pass the local chain's); its owner closes it. */
  chainReader?: ChainReader;
};

/** The built app, with what its callers (the tests) read of it. */
export type ManagementApp = FastifyInstance & {
  /** Every /api/developer and /api/dashboard route (auth plugin); all of them require a dashboard JWT. */
  readonly managedRoutes: readonly ManagedRoute[];
  /** The running lifecycle scheduler; null when SCHEDULER_ENABLED is false (or before ready). */
  readonly raffleScheduler: RaffleScheduler | null;
};

export const API_VERSION = '1.0.0';

/** Builds the management app: the service kit, management's plugins, then its routes. Never listens and never reads the environment. */
export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<ManagementApp> {
  const app = await createServiceApp({
    name: 'management',
    config,
    errors: managementErrors,
    server: {
      bodyLimit: config.BODY_LIMIT_BYTES,
      trustProxy: trustProxyRule(config.TRUST_PROXY),
      routerOptions: { maxParamLength: 512 },
      // Bodies are validated as sent: no coercion ("name": 5 is not a name) and no silent removal
      // of unknown fields (an extra field is a 400, not ignored).
      ajvOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: true },
    },
    decorations: { cursors: createCursorCodec(config.CURSOR_SECRET, 'dashboard'), beaconChain: beaconOf(config).chain },
    database: deps.database,
    logStream: deps.logStream,
    openApi: {
      title: 'Raffle Developer API — management',
      description:
        'The dashboard\'s API, authenticated by the dashboard session JWT (API keys are refused). `/api/developer`: the scopes and webhook event types that can be chosen, personal and workspace API keys (create, list, revoke, roll) and webhook endpoints (create, edit, delete, rotate the secret, test, the delivery log, retry and recover). ' +
        '`/api/dashboard`: the signed-in user\'s profile, wallets (linked by Sign-In with Ethereum) and Discord and X accounts (linked by OAuth 2.0), workspaces, members and projects, the raffle lifecycle (create, publish, open, close, draw, finalize, cancel), entries, wins, rerolls and deliveries, and entering as the signed-in user. The `webhooks` section describes the events sent to endpoints.',
      version: API_VERSION,
      securitySchemes: {
        dashboardJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Authorization: Bearer <dashboard session JWT>' },
      },
      webhooks: openApiWebhooks(),
      // The payload schemas the `webhooks` section names: components of this document only.
      schemas: WEBHOOK_EVENT_SCHEMAS,
      ...MANAGEMENT_OPENAPI,
    },
  });
  await app.register(authPlugin);
  await app.register(rateLimitPlugin);
  await app.register(beaconRoundsPlugin);
  await app.register(chainReaderPlugin, { settings: config, chainReader: deps.chainReader });
  await app.register(connectionsPlugin);
  await app.register(socialReaderPlugin);
  await app.register(raffleSchedulerPlugin);
  await app.register(walletLinksPlugin);
  // Keys are per signed-in user; the creates answer secrets shown once, so every stored answer is
  // sealed (decision 0020). CURSOR_SECRET is the one secret every instance shares and production
  // must set; the seal derives its own key from it (HKDF, its own label), so the uses stay apart.
  await app.register(idempotencyPlugin, {
    principalOf: dashboardUserIdOf,
    refusal: (code, message) => new DomainError(code, message),
    sealingSecret: config.CURSOR_SECRET,
  });

  await app.register(developerRoutes, { prefix: MANAGEMENT_PREFIX });
  await app.register(dashboardRoutes, { prefix: DASHBOARD_PREFIX });
  // Developer routes too, registered after the dashboard's: the published OpenAPI document lists them last.
  await app.register(webhookEndpointRoutes, { kind: 'personal', prefix: MANAGEMENT_PREFIX });
  await app.register(webhookEndpointRoutes, { kind: 'workspace', prefix: MANAGEMENT_PREFIX });

  await app.ready();
  // The route list and the scheduler are decorated by their plugins; the type says so for the app's callers.
  return app as ManagementApp;
}
