import type { OpenApiFinish } from '@raffle/service-kit';

/** What the dispatcher's OpenAPI document says beyond its route schemas: it serves only operations routes. */
export const DISPATCHER_OPENAPI: OpenApiFinish = {
  servers: [
    { url: 'http://localhost:3002', description: 'A local webhook dispatcher (`pnpm start`; the default PORT).' },
    {
      url: 'http://{host}:{port}',
      description: 'A deployed dispatcher, reachable by its orchestrator and metrics scraper only.',
      variables: {
        host: { default: 'webhook-dispatcher', description: 'The host name of the instance inside its network.' },
        port: { default: '3002', description: 'Its PORT.' },
      },
    },
  ],
  tags: [{ name: 'Operations', description: 'For operators and orchestrators: liveness and readiness probes, Prometheus metrics and this document.' }],
};
