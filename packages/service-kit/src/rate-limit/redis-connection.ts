import { once } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** How long the first connection may take before the service starts serving (with memory counters meanwhile). */
const FIRST_CONNECTION_GRACE_MS = 2000;
/** Reconnect attempts back off to at most this, so a returning Redis is noticed within about a second. */
const MAX_RECONNECT_DELAY_MS = 1000;

/**
 * A Redis client for rate-limit counters that can never stall a request: commands fail at once
 * while disconnected (no offline queue, no retry of in-flight commands) and after
 * `commandTimeoutMs` when Redis is slow or hung; reconnection runs in the background.
 */
export async function openRateLimitRedis(url: string, options: { commandTimeoutMs: number; log: FastifyBaseLogger }): Promise<Redis> {
  const redis = new Redis(url, {
    connectTimeout: Math.max(options.commandTimeoutMs, 1000),
    commandTimeout: options.commandTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
    lazyConnect: false,
  });
  // Connection errors repeat at every reconnect attempt; the outage itself is logged once by the store's health.
  redis.on('error', (error: Error) => options.log.debug({ reason: error.message }, 'rate-limit Redis connection error'));
  if (redis.status !== 'ready') {
    await Promise.race([once(redis, 'ready'), new Promise((resolve) => setTimeout(resolve, FIRST_CONNECTION_GRACE_MS).unref())]).catch(() => undefined);
  }
  return redis;
}
