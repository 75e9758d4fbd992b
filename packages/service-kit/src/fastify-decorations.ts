import type { Database } from '@raffle/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import type { ServiceMetrics } from './plugins/metrics.js';
import type { NatsHandle } from './plugins/nats.js';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    nats: NatsHandle;
    /** The app's Prometheus registry (metrics plugin): services add their own metrics to it. */
    metricsRegistry: Registry;
    /** The metrics every service keeps beyond request durations (metrics plugin). */
    serviceMetrics: ServiceMetrics;
    /** The 404/405 answer for a request no route matched (not-found plugin). */
    answerUnmatched: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
  }
}
export {};
