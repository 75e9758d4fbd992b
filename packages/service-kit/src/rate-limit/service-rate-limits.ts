import type { FastifyInstance } from 'fastify';
import rateLimitPlugin, { type RateLimitPluginOptions } from './plugin.js';

/** The counter-store settings every rate-limited service's config has, under the same names. */
export type RateLimitStoreConfig = {
  /** When set, counters are shared through Redis by every instance. */
  REDIS_URL?: string;
  RATE_LIMIT_REDIS_TIMEOUT_MS: number;
  RATE_LIMIT_REDIS_NAMESPACE: string;
};

/** What each service decides for itself: the limited routes, the buckets, its 429 error and body. */
export type ServiceRateLimits = Omit<RateLimitPluginOptions, 'redisUrl' | 'redisCommandTimeoutMs' | 'namespace'>;

/**
 * Registers a service's limits on the counter store its config names, so every service reads
 * REDIS_URL and the RATE_LIMIT_REDIS_* settings the same way and only states its own budgets.
 */
export async function registerServiceRateLimits(app: FastifyInstance, config: RateLimitStoreConfig, limits: ServiceRateLimits): Promise<void> {
  await app.register(rateLimitPlugin, {
    redisUrl: config.REDIS_URL,
    redisCommandTimeoutMs: config.RATE_LIMIT_REDIS_TIMEOUT_MS,
    namespace: config.RATE_LIMIT_REDIS_NAMESPACE,
    ...limits,
  });
}
