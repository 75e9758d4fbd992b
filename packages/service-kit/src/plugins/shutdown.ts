import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export type ShutdownBody = (request: FastifyRequest, status: 503, message: string) => unknown;

/** Another replica is serving, or this one is back, within a second. */
const RETRY_AFTER_SECONDS = '1';

export type ShutdownOptions = {
  body: ShutdownBody;
  /** How long open connections are given to learn, from a `Connection: close` answer, that this instance is going. */
  drainMs: number;
};

/**
 * While the service shuts down, requests that arrive (on a keep-alive connection, or before the
 * load balancer notices) are answered 503 with the service's own error body, `Retry-After` and
 * `Connection: close`, instead of Fastify's bare default body; requests already running finish,
 * and their responses close their connections too. The server closes its idle connections only
 * after `drainMs`: a client that sends on a connection the server has just closed sees a reset,
 * one that sends during the drain gets the 503 and reconnects elsewhere. Fastify's own
 * `return503OnClosing` must be off for this to answer. Register it before any other plugin
 * adding `onRequest` hooks, so nothing else runs for a refused request.
 */
async function shutdownPlugin(app: FastifyInstance, options: ShutdownOptions) {
  let closing = false;
  // Fastify stops routing and runs preClose in one synchronous step: no request slips between.
  app.addHook('preClose', async () => {
    closing = true;
    if (options.drainMs > 0 && (await openConnections(app)) > 0) await new Promise((resolve) => setTimeout(resolve, options.drainMs));
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close').header('retry-after', RETRY_AFTER_SECONDS).header('x-request-id', request.id);
    return reply.status(503).send(options.body(request, 503, 'the service is shutting down; retry shortly'));
  });
}

export default fp(shutdownPlugin, { name: 'shutdown' });

function openConnections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve) => {
    if (!app.server.listening) return resolve(0);
    app.server.getConnections((error, count) => resolve(error ? 0 : count));
  });
}
