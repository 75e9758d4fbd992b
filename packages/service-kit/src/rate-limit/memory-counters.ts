import type { WindowCount, WindowCounters } from './counter.js';

const DEFAULT_MAX_KEYS = 50_000;

/**
 * Fixed-window counters in this instance's memory: the store when no Redis is configured, and the
 * fallback while Redis is unreachable. Bounded: past `maxKeys` the oldest key is forgotten (its
 * client starts a fresh window), so a flood of distinct keys cannot grow the heap without limit.
 */
export class MemoryCounters implements WindowCounters {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly maxKeys = DEFAULT_MAX_KEYS) {}

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const now = Date.now();
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      // Re-inserted so the Map's insertion order stays oldest-first for eviction.
      this.#windows.delete(key);
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
      this.#evictOverflow();
    }
    window.count += 1;
    return { current: window.count, ttl: window.resetAt - now };
  }

  #evictOverflow() {
    for (const key of this.#windows.keys()) {
      if (this.#windows.size <= this.maxKeys) return;
      this.#windows.delete(key);
    }
  }
}
