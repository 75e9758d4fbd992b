import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What every service counts beyond request durations; infra/prometheus and infra/grafana read them. */
export type ServiceMetrics = {
  /** A 401 or 403 answered, by its error code (missing, invalid or revoked credentials; a forbidden scope or role). */
  authFailures: Counter<'code'>;
  /** A request refused with 429, by the rate-limit bucket that refused it. */
  rateLimitRejections: Counter<'bucket'>;
};

/**
 * Prometheus metrics on a registry of the app's own, so several apps can live in one process:
 * request durations, auth failures, rate-limit rejections and the database pool's queries (how
 * many wait for a connection, how many run), besides Node's defaults.
 */
async function metricsPlugin(app: FastifyInstance, options: { service: string }) {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  collectDefaultMetrics({ register: registry });
  app.decorate('metricsRegistry', registry);
  const registers = [registry];
  app.decorate('serviceMetrics', {
    authFailures: new Counter({ name: 'auth_failures_total', help: 'Requests refused with 401 or 403, by error code', labelNames: ['code'] as const, registers }),
    rateLimitRejections: new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused with 429, by the rate-limit bucket that refused them',
      labelNames: ['bucket'] as const,
      registers,
    }),
  } satisfies ServiceMetrics);
  if (app.hasDecorator('database')) databasePoolMetrics(app, registers);
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        tags: ['Operations'],
        summary: 'Prometheus metrics (text exposition format)',
        produces: ['text/plain'],
        response: {
          200: Type.String({
            description: 'The service\'s metrics in the Prometheus text exposition format.',
            examples: [
              '# HELP http_request_duration_seconds HTTP request duration by route template and status\n# TYPE http_request_duration_seconds histogram\n' +
                'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/v1/me",status_code="200"} 42\n',
            ],
          }),
        },
      },
    },
    async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
  );
}

/** The pool's queries (waiting for a connection, running on one) and its size, read at each scrape. */
function databasePoolMetrics(app: FastifyInstance, registers: Registry[]) {
  new Gauge({
    name: 'db_pool_queries',
    help: 'Queries in the database pool: waiting for a connection, or running on one',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const { waiting, running } = app.database.poolStats();
      this.set({ state: 'waiting' }, waiting);
      this.set({ state: 'running' }, running);
    },
  });
  new Gauge({ name: 'db_pool_size', help: 'Connections the database pool may open', registers, collect() {
    this.set(app.database.poolStats().size);
  } });
}

export default fp(metricsPlugin, { name: 'metrics' });
