import { existsSync } from 'node:fs';
import path from 'node:path';
import { httpServerOptions, limitConnections, loggerOptions, metricsPlugin, requestIdOf, requestIdPlugin } from '@raffle/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import { proxyPlugin } from './proxy.js';
import securityHeaders from './security-headers.js';
import { staticAppPlugin } from './static-app.js';

export type BuildOptions = { logStream?: DestinationStream };

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...httpServerOptions(config),
    logger: loggerOptions({ level: config.LOG_LEVEL, stream: options.logStream }),
    genReqId: requestIdOf,
  });
  limitConnections(app.server, config);

  await app.register(requestIdPlugin);
  await app.register(securityHeaders);
  // Its own metrics, as every service has: /metrics is never the app's index.html.
  await app.register(metricsPlugin, { service: 'console' });

  app.get('/health/live', async () => ({ status: 'ok' as const }));
  // Ready once the built app is there to serve; the upstreams have their own probes.
  app.get('/health/ready', async (_request, reply) => {
    const ready = existsSync(path.join(config.STATIC_DIR, 'index.html'));
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: { app: ready ? 'ok' : 'unavailable' } });
  });

  await app.register(proxyPlugin, {
    timeoutMs: config.PROXY_TIMEOUT_MS,
    bodyLimitBytes: config.PROXY_BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    routes: [
      { prefix: '/api/developer', target: config.MANAGEMENT_URL, upstreamName: 'management', errorStyle: 'management' },
      { prefix: '/api/dashboard', target: config.MANAGEMENT_URL, upstreamName: 'management', errorStyle: 'management' },
      { prefix: '/api/v1', target: config.DATA_PLANE_URL, upstreamName: 'data plane', errorStyle: 'data-plane' },
      { prefix: '/public/v1', target: config.DATA_PLANE_URL, upstreamName: 'data plane', errorStyle: 'data-plane' },
    ],
  });
  await app.register(staticAppPlugin, { root: config.STATIC_DIR });
  return app;
}
