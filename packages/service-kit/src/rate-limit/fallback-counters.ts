import type { Redis } from 'ioredis';
import type { WindowCount, WindowCounters } from './counter.js';
import { MemoryCounters } from './memory-counters.js';
import { RedisCounters } from './redis-counters.js';
import type { RateLimitStoreHealth } from './store-health.js';

/** After Redis is judged unreachable, it is left alone this long, so a hung server costs a few timeouts per second, not one per request. */
const RETRY_REDIS_AFTER_MS = 1000;

/**
 * Failed commands in a row on a connection that reports itself ready before Redis counts as
 * unreachable. One command slower than the budget is what a loaded machine does to a healthy
 * Redis (issue 22 saw it under CPU contention); a hung Redis fails every command, so three in a
 * row tell the two apart at the cost of three timeouts at the start of a hang.
 */
const FAILURES_BEFORE_UNREACHABLE = 3;

/**
 * Shared counters in Redis while it answers, this instance's memory while it does not. Every
 * request is also counted in memory, whatever decides it: a request decided in memory then sees
 * everything this instance let through in its window, so falling back never hands a key a fresh
 * budget on top of what Redis already counted. While Redis is away a key gets at most its limit per
 * window from each instance (the instances no longer see each other's counts), never more from one.
 *
 * The count returned is always the one that decided, so the response headers describe the counter
 * actually used. Never rejects: a rate limiter must not turn a Redis outage into 5xx.
 */
export class FallbackCounters implements WindowCounters {
  readonly #shared: RedisCounters;
  readonly #local = new MemoryCounters();
  #skipRedisUntil = 0;
  #failuresInARow = 0;

  constructor(
    private readonly redis: Redis,
    namespace: string,
    private readonly health: RateLimitStoreHealth,
  ) {
    this.#shared = new RedisCounters(redis, namespace);
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const local = await this.#local.increment(key, windowMs);
    // Commands are never queued while disconnected (enableOfflineQueue: false), so only a ready
    // connection is tried; a hung one is bounded by the client's commandTimeout.
    if (this.redis.status === 'ready' && Date.now() >= this.#skipRedisUntil) {
      try {
        const count = await this.#shared.increment(key, windowMs);
        this.#failuresInARow = 0;
        this.health.markReachable();
        return count;
      } catch (error) {
        this.#failuresInARow += 1;
        if (this.#failuresInARow >= FAILURES_BEFORE_UNREACHABLE) {
          this.#skipRedisUntil = Date.now() + RETRY_REDIS_AFTER_MS;
          this.health.markUnreachable(error instanceof Error ? error.message : String(error));
        }
      }
    } else if (this.redis.status !== 'ready') {
      this.health.markUnreachable(`connection ${this.redis.status}`);
    }
    this.health.countLocalDecision();
    return local;
  }
}
