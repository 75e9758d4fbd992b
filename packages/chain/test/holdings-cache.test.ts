import { describe, expect, it } from 'vitest';
import { HoldingsCache } from '../src/reader/holdings-cache.js';

describe('HoldingsCache', () => {
  it('reuses a latest read only for its time, and keeps a pinned read', () => {
    let now = 1_000;
    const cache = new HoldingsCache(10, 5_000, () => now);
    cache.set('a', 'latest', 1n);
    cache.set('a', 7n, 2n);
    now += 4_999;
    expect(cache.get('a', 'latest')).toBe(1n);
    now += 1;
    expect(cache.get('a', 'latest')).toBeUndefined();
    now += 10_000_000;
    expect(cache.get('a', 7n)).toBe(2n);
    expect(cache.get('a', 8n)).toBeUndefined();
  });

  it('keeps no latest read when its time is 0', () => {
    const cache = new HoldingsCache(10, 0);
    cache.set('a', 'latest', 1n);
    expect(cache.get('a', 'latest')).toBeUndefined();
  });

  it('drops the least recently used pinned read past its bound', () => {
    const cache = new HoldingsCache(2, 5_000);
    cache.set('a', 1n, 1n);
    cache.set('b', 1n, 2n);
    expect(cache.get('a', 1n)).toBe(1n); // a is now the most recently used
    cache.set('c', 1n, 3n);
    expect(cache.get('b', 1n)).toBeUndefined();
    expect(cache.get('a', 1n)).toBe(1n);
    expect(cache.get('c', 1n)).toBe(3n);
  });
});
