import type { Redis } from 'ioredis';
import type { WindowCount, WindowCounters } from './counter.js';
import { MemoryCounters } from './memory-counters.js';
import { RedisCounters } from './redis-counters.js';
import type { RateLimitStoreHealth } from './store-health.js';

/** After a failed command, Redis is left alone this long, so a hung server costs one timeout per second, not one per request. */
const RETRY_REDIS_AFTER_MS = 1000;

/**
 * Shared counters in Redis while it answers, this instance's memory while it does not. The count
 * returned is always the one that decided, so the response headers describe the counter
 * actually used. Never rejects: a rate limiter must not turn a Redis outage into 5xx.
 */
export class FallbackCounters implements WindowCounters {
  readonly #shared: RedisCounters;
  readonly #local = new MemoryCounters();
  #skipRedisUntil = 0;

  constructor(
    private readonly redis: Redis,
    namespace: string,
    private readonly health: RateLimitStoreHealth,
  ) {
    this.#shared = new RedisCounters(redis, namespace);
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    // Commands are never queued while disconnected (enableOfflineQueue: false), so only a ready
    // connection is tried; a hung one is bounded by the client's commandTimeout.
    if (this.redis.status === 'ready' && Date.now() >= this.#skipRedisUntil) {
      try {
        const count = await this.#shared.increment(key, windowMs);
        this.health.markReachable();
        return count;
      } catch (error) {
        this.#skipRedisUntil = Date.now() + RETRY_REDIS_AFTER_MS;
        this.health.markUnreachable(error instanceof Error ? error.message : String(error));
      }
    } else if (this.redis.status !== 'ready') {
      this.health.markUnreachable(`connection ${this.redis.status}`);
    }
    this.health.countLocalDecision();
    return this.#local.increment(key, windowMs);
  }
}
