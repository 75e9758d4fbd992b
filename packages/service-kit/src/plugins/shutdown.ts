import { Server as NetServer } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** True from the moment the instance starts shutting down (shutdown plugin). */
    isShuttingDown: () => boolean;
  }
  interface FastifyContextConfig {
    /**
     * The route answers for itself while the instance shuts down, in its own documented shape
     * (the readiness probe: its 503 body is not the error body, and a body its response schema
     * refuses would turn the 503 into a 500).
     */
    answersWhileShuttingDown?: boolean;
  }
}

export type ShutdownBody = (request: FastifyRequest, status: 503, message: string) => unknown;

/** Another replica is serving, or this one is back, within a second. */
const RETRY_AFTER_SECONDS = '1';

export type ShutdownOptions = {
  body: ShutdownBody;
  /** How long open connections are given to learn, from a `Connection: close` answer, that this instance is going. */
  drainMs: number;
};

/**
 * While the service shuts down it takes no new connection (the deployment's preStop pause has
 * already taken it out of the load balancer; a client that still connects is refused and tries
 * another instance, having sent nothing). Requests arriving on connections already open are
 * answered 503 with the service's own error body, `Retry-After` and `Connection: close`, instead
 * of Fastify's bare default body; requests already running finish, and their responses close
 * their connections too. The idle connections are closed only after `drainMs`.
 *
 * Why the listener closes first: a connection accepted during the drain could still be idle (its
 * request not yet read) when the drain ends and the idle connections are closed, and one waiting in
 * the kernel's accept queue when the listener closes is reset — either way a request torn down
 * unanswered. Refusing from the first moment leaves only connections that were already open, and
 * each of those learns it is closing from its next answer.
 *
 * Fastify's own `return503OnClosing` must be off for this to answer. Register it before any other
 * plugin adding `onRequest` hooks, so nothing else runs for a refused request.
 */
async function shutdownPlugin(app: FastifyInstance, options: ShutdownOptions) {
  let closing = false;
  app.decorate('isShuttingDown', () => closing);
  // Fastify stops routing and runs preClose in one synchronous step: no request slips between.
  app.addHook('preClose', async () => {
    closing = true;
    if (!app.server.listening) return;
    const open = await openConnections(app);
    stopAccepting(app);
    if (options.drainMs > 0 && open > 0) await new Promise((resolve) => setTimeout(resolve, options.drainMs));
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close').header('retry-after', RETRY_AFTER_SECONDS).header('x-request-id', request.id);
    if (request.routeOptions.config.answersWhileShuttingDown === true) return;
    return reply.status(503).send(options.body(request, 503, 'the service is shutting down; retry shortly'));
  });
}

export default fp(shutdownPlugin, { name: 'shutdown' });

function openConnections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve) => app.server.getConnections((error, count) => resolve(error ? 0 : count)));
}

/**
 * Closes the listening socket and nothing else. `http.Server#close` would also close the idle
 * keep-alive connections at once; the drain gives them their 503 first. Fastify's own
 * `server.close()` afterwards closes what is left and accepts that the listener is already gone.
 */
function stopAccepting(app: FastifyInstance): void {
  NetServer.prototype.close.call(app.server);
}
