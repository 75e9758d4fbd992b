import type { HoldingQuery } from '../types.js';
import type { HoldingResult } from './chain-connection.js';
import { blockKey } from './holding-key.js';

type Waiting = { query: HoldingQuery; resolve: (value: bigint) => void; reject: (error: unknown) => void };
type Group = { block: bigint | 'latest'; waiting: Waiting[] };

/**
 * Coalesces the reads of one chain that arrive in the same turn of the event loop: 200 entries
 * evaluated concurrently become one flush per block, cut into bounded reads of `maxCalls` (sent
 * together in one JSON-RPC batch by the transport), instead of 200 separate requests. Coalescing
 * never couples the callers' fates: each read is answered with its own result, and a read the
 * chain refused fails only the callers who asked for it (the whole chunk fails only when the chain
 * did not answer at all).
 */
export class HoldingsBatcher {
  private readonly groups = new Map<string, Group>();
  private scheduled = false;

  constructor(
    private readonly read: (queries: HoldingQuery[], block: bigint | 'latest') => Promise<HoldingResult[]>,
    private readonly maxCalls: number,
  ) {}

  enqueue(query: HoldingQuery, block: bigint | 'latest'): Promise<bigint> {
    return new Promise<bigint>((resolve, reject) => {
      const key = blockKey(block);
      let group = this.groups.get(key);
      if (!group) {
        group = { block, waiting: [] };
        this.groups.set(key, group);
      }
      group.waiting.push({ query, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate, not a microtask: requests handled in the same I/O phase join the same flush.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    const groups = [...this.groups.values()];
    this.groups.clear();
    for (const group of groups) {
      for (let start = 0; start < group.waiting.length; start += this.maxCalls) {
        const chunk = group.waiting.slice(start, start + this.maxCalls);
        this.read(
          chunk.map((waiting) => waiting.query),
          group.block,
        ).then(
          (results) =>
            chunk.forEach((waiting, index) => {
              const result = results[index] ?? 0n;
              if (typeof result === 'bigint') waiting.resolve(result);
              else waiting.reject(result);
            }),
          (error: unknown) => chunk.forEach((waiting) => waiting.reject(error)),
        );
      }
    }
  }
}
