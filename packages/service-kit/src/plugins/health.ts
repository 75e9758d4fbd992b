import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const CheckState = Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]);
const ReadinessSchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  checks: Type.Object({ database: CheckState, nats: CheckState }),
});

const DATABASE_CHECK_TIMEOUT_MS = 1000;

/**
 * Liveness says the process answers; readiness says it can serve. The services serve without
 * NATS (events wait in the outbox, revocations fall back to the short key cache), so NATS is
 * reported but does not take an instance out of rotation; the database does
 * (docs/decisions/0005). The database is pinged on a connection of its own, not through the pool:
 * a table locked for a minute holds every pooled connection of every replica at once, and a load
 * balancer must not take them all out for what one table does (issue 22, docs/decisions/0018).
 */
async function healthPlugin(app: FastifyInstance) {
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
      schema: {
        operationId: 'getReadiness',
        tags: ['Operations'],
        summary: 'Readiness probe: database and NATS',
        response: {
          200: { ...ReadinessSchema, description: 'Ready for traffic: the database answers (NATS is reported, but does not decide).' },
          503: { ...ReadinessSchema, description: 'Not ready: the database does not answer; take the instance out of rotation.' },
        },
      },
    },
    async (_request, reply) => {
      const database = await Promise.race([
        app.database.ping().then(() => 'ok' as const),
        new Promise<'unavailable'>((resolve) => setTimeout(() => resolve('unavailable'), DATABASE_CHECK_TIMEOUT_MS).unref()),
      ]).catch(() => 'unavailable' as const);
      const nats = app.nats.isConnected() ? ('ok' as const) : ('unavailable' as const);
      const ready = database === 'ok';
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: { database, nats } });
    },
  );
}

export default fp(healthPlugin, { name: 'health', dependencies: ['database', 'nats'] });
