import type { Database } from '@raffle/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NatsHandle } from './plugins/nats.js';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    nats: NatsHandle;
    /** The 404/405 answer for a request no route matched (not-found plugin). */
    answerUnmatched: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
  }
}
export {};
