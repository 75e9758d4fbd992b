import type { FastifyInstance } from 'fastify';
import type { ReadinessCheck, ReadinessDocumentation } from './health.js';

const DATABASE_CHECK_TIMEOUT_MS = 1000;

/**
 * The database decides readiness: without it nothing can be served. It is pinged on a connection
 * of its own, not through the pool: a table locked for a minute holds every pooled connection of
 * every replica at once, and a load balancer must not take them all out for what one table does
 * (issue 22, docs/decisions/0018).
 */
export function databaseCheck(app: FastifyInstance): ReadinessCheck {
  return {
    name: 'database',
    decides: true,
    check: () =>
      Promise.race([
        app.database.ping().then(() => 'ok' as const),
        new Promise<'unavailable'>((resolve) => setTimeout(() => resolve('unavailable'), DATABASE_CHECK_TIMEOUT_MS).unref()),
      ]),
  };
}

/** NATS is reported only: the services serve without it (events wait in the outbox, revocations fall back to the short key cache; docs/decisions/0005). */
export function natsCheck(app: FastifyInstance): ReadinessCheck {
  return { name: 'nats', decides: false, check: async () => (app.nats.isConnected() ? 'ok' : 'unavailable') };
}

/** How a service with the database and NATS documents its readiness probe. */
export const DATABASE_AND_NATS_READINESS: ReadinessDocumentation = {
  summary: 'Readiness probe: database and NATS',
  ready: 'Ready for traffic: the database answers (NATS is reported, but does not decide).',
  unavailable: 'Not ready: the database does not answer; take the instance out of rotation.',
};
