/**
 * Balances already read. A balance at a pinned block never changes, so those are kept until the
 * bound pushes the least recently used out; a balance at `latest` is reused only for `latestMs`
 * (an entrant who just bought the pass should not wait long to see it count).
 */
export class HoldingsCache {
  private readonly pinned = new Map<string, bigint>();
  private readonly latest = new Map<string, { value: bigint; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly latestMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, block: bigint | 'latest'): bigint | undefined {
    if (block === 'latest') {
      const hit = this.latest.get(key);
      if (!hit) return undefined;
      if (hit.expiresAt <= this.now()) {
        this.latest.delete(key);
        return undefined;
      }
      return hit.value;
    }
    const pinnedKey = `${block}|${key}`;
    const value = this.pinned.get(pinnedKey);
    if (value === undefined) return undefined;
    // Map keeps insertion order: moving the hit to the end makes the first key the least recently used.
    this.pinned.delete(pinnedKey);
    this.pinned.set(pinnedKey, value);
    return value;
  }

  set(key: string, block: bigint | 'latest', value: bigint): void {
    if (block === 'latest') {
      if (this.latestMs <= 0) return;
      this.latest.set(key, { value, expiresAt: this.now() + this.latestMs });
      evictOldest(this.latest, this.maxEntries);
      return;
    }
    this.pinned.set(`${block}|${key}`, value);
    evictOldest(this.pinned, this.maxEntries);
  }

  clear(): void {
    this.pinned.clear();
    this.latest.clear();
  }
}

function evictOldest(map: Map<string, unknown>, max: number): void {
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) return;
    map.delete(oldest.value);
  }
}
