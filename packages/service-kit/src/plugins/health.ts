import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export type CheckState = 'ok' | 'unavailable';

/** One thing readiness looks at, reported under `checks.<name>`. */
export type ReadinessCheck = {
  name: string;
  check: () => Promise<CheckState>;
  /** An unavailable one takes the instance out of rotation (503); otherwise it is only reported. */
  decides: boolean;
};

/** What the OpenAPI document says of the readiness probe: each service has its own checks. */
export type ReadinessDocumentation = { summary: string; ready: string; unavailable: string };

export type HealthOptions = { checks: readonly ReadinessCheck[]; documentation: ReadinessDocumentation };

const CheckStateSchema = Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]);

/**
 * Liveness says the process answers; readiness says it can serve, by the service's checks: what
 * it cannot serve without decides, what it can serve without (NATS, say: docs/decisions/0005) is
 * only reported. A check that throws counts as unavailable. An instance shutting down is not ready
 * whatever its checks say: it answers 503 in the readiness shape (the shutdown plugin lets this route
 * answer for itself, since the error body is not what its 503 documents).
 */
async function healthPlugin(app: FastifyInstance, options: HealthOptions) {
  const ReadinessSchema = Type.Object({
    status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
    checks: Type.Object(Object.fromEntries(options.checks.map(({ name }) => [name, CheckStateSchema]))),
  });
  const { documentation } = options;
  // Without the shutdown plugin (an app built by hand) the instance never says it is going.
  const shuttingDown = () => app.hasDecorator('isShuttingDown') && app.isShuttingDown();

  app.get(
    '/health/live',
    {
      schema: {
        operationId: 'getLiveness',
        tags: ['Operations'],
        summary: 'Liveness probe',
        response: { 200: Type.Object({ status: Type.Literal('ok') }, { description: 'The process is up and answering.' }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      config: { answersWhileShuttingDown: true },
      schema: {
        operationId: 'getReadiness',
        tags: ['Operations'],
        summary: documentation.summary,
        response: {
          200: { ...ReadinessSchema, description: documentation.ready },
          503: { ...ReadinessSchema, description: `${documentation.unavailable} Also while this instance shuts down, whatever its checks say.` },
        },
      },
    },
    async (_request, reply) => {
      const states = await Promise.all(options.checks.map(({ check }) => check().catch(() => 'unavailable' as const)));
      const ready = !shuttingDown() && options.checks.every(({ decides }, i) => !decides || states[i] === 'ok');
      const checks = Object.fromEntries(options.checks.map(({ name }, i) => [name, states[i]]));
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
    },
  );
}

export default fp(healthPlugin, { name: 'health' });
