import { createServiceApp, trustProxyRule } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import { consoleErrors } from './errors.js';
import { proxyPlugin } from './proxy.js';
import { consoleReadiness } from './readiness.js';
import securityHeaders from './security-headers.js';
import { clientRoutes, staticAppPlugin } from './static-app.js';
import { upstreamRoutes } from './upstream-routes.js';

export type BuildOptions = { logStream?: DestinationStream };

/**
 * The console's server, built by the service kit like the other three (logging with redaction,
 * request ids, health, its own /metrics, shutdown 503, the error body, the parser's refusals),
 * asking for none of its capabilities: it keeps no data, and passes bodies on unread. It has no
 * OpenAPI document: its only routes of its own are the probes every service has (each API's
 * document shows them), and the proxied paths are the APIs', in their documents; a console
 * document would repeat those or describe catch-alls. Never listens and never reads the environment.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = await createServiceApp({
    name: 'console',
    config,
    errors: consoleErrors,
    capabilities: { database: false, nats: false, parsedInput: false },
    server: { trustProxy: trustProxyRule(config.TRUST_PROXY) },
    readiness: consoleReadiness(config.STATIC_DIR),
    unmatched: clientRoutes(config.STATIC_DIR),
    logStream: options.logStream,
  });
  await app.register(securityHeaders);
  await app.register(proxyPlugin, {
    timeoutMs: config.PROXY_TIMEOUT_MS,
    bodyLimitBytes: config.PROXY_BODY_LIMIT_BYTES,
    routes: upstreamRoutes(config),
  });
  await app.register(staticAppPlugin, { root: config.STATIC_DIR });
  await app.ready();
  return app;
}
