/**
 * A tiny TTL cache for responses that are identical for every caller (the public raffle
 * list). Concurrent misses for one key share a single load, so a burst costs one query.
 */
export function createSharedResponseCache<T = string>(options: { ttlMs: number; maxEntries: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: Promise<T>; expiresAt: number }>();

  return {
    get(key: string, load: () => Promise<T>): Promise<T> {
      if (options.ttlMs <= 0) return load();
      const at = now();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > at) return hit.value;
      if (entries.size >= options.maxEntries) {
        for (const [k, e] of entries) if (e.expiresAt <= at) entries.delete(k);
        if (entries.size >= options.maxEntries) entries.clear();
      }
      const value = load();
      entries.set(key, { value, expiresAt: at + options.ttlMs });
      value.catch(() => entries.delete(key));
      return value;
    },
  };
}
