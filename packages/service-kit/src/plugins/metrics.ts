import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Prometheus metrics on a registry of the app's own, so several apps can live in one process. */
async function metricsPlugin(app: FastifyInstance, options: { service: string }) {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  collectDefaultMetrics({ register: registry });
  app.decorate('metricsRegistry', registry);
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

export default fp(metricsPlugin, { name: 'metrics' });
