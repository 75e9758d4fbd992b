import type { Redis } from 'ioredis';
import type { WindowCount, WindowCounters } from './counter.js';

/**
 * One round trip, atomic: count the request, start the window's expiry on its first request
 * (or if the key somehow lost it), and report what remains of the window.
 */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type ScriptedRedis = Redis & { incrementRateLimitWindow(key: string, windowMs: number): Promise<[number, number]> };

/** Fixed-window counters in Redis under `namespace`, shared by every instance that uses the same Redis. */
export class RedisCounters implements WindowCounters {
  readonly #redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly namespace: string,
  ) {
    // ioredis runs it by EVALSHA and resends the script itself after a Redis restart (NOSCRIPT).
    if (!('incrementRateLimitWindow' in redis)) redis.defineCommand('incrementRateLimitWindow', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    this.#redis = redis as ScriptedRedis;
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const [current, ttl] = await this.#redis.incrementRateLimitWindow(this.namespace + key, windowMs);
    return { current, ttl };
  }
}
