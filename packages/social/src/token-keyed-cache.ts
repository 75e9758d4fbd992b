import { createHash } from 'node:crypto';

/**
 * Per-token client state (rate-limit buckets), least recently used first out. Providers count
 * limits per user token, so one user's spent bucket must not hold back another's; keyed by a hash
 * so no token sits in memory as a map key longer than its client does.
 */
export class TokenKeyedCache<V> {
  readonly #entries = new Map<string, V>();

  constructor(
    private readonly capacity: number,
    private readonly onEvict: (value: V) => void = () => {},
  ) {}

  getOrCreate(token: string, create: () => V): V {
    const key = tokenKey(token);
    const existing = this.#entries.get(key);
    if (existing !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, existing);
      return existing;
    }
    const created = create();
    this.#entries.set(key, created);
    if (this.#entries.size > this.capacity) {
      const [oldestKey, oldest] = this.#entries.entries().next().value as [string, V];
      this.#entries.delete(oldestKey);
      this.onEvict(oldest);
    }
    return created;
  }

  forget(token: string): void {
    const key = tokenKey(token);
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#entries.delete(key);
    this.onEvict(value);
  }
}

const tokenKey = (token: string) => createHash('sha256').update(token).digest('base64url');
