import '@raffle/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from './config.js';
import type { ManagedRoute } from './plugins/auth.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Every /api/developer route; all of them require a dashboard JWT. */
    managedRoutes: readonly ManagedRoute[];
    /** The 404/405 answer for a request no route matched. */
    answerUnmatched: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
  }
  interface FastifyRequest {
    /** The verified JWT's `sub`, set before any /api/developer handler runs. */
    dashboardUserId: string | null;
  }
}
