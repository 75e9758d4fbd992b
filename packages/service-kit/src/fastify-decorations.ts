import type { Database } from '@raffle/db';
import type { NatsHandle } from './plugins/nats.js';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    nats: NatsHandle;
  }
}
export {};
