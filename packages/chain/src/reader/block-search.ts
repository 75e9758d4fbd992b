import type { PinnedBlock } from '../types.js';

/**
 * The first block whose timestamp is at or after `at`, by binary search over block numbers (block
 * timestamps never decrease), or null when the latest block is still older than `at`. Each probe is
 * one eth_getBlockByNumber; `blockAt` is expected to cache.
 */
export async function firstBlockAtOrAfter(
  at: Date,
  latest: PinnedBlock,
  blockAt: (number: bigint) => Promise<PinnedBlock>,
): Promise<PinnedBlock | null> {
  if (latest.timestamp.getTime() < at.getTime()) return null;
  let low = 0n;
  let high = latest.number;
  let found = latest;
  while (low < high) {
    const middle = (low + high) / 2n;
    const block = await blockAt(middle);
    if (block.timestamp.getTime() >= at.getTime()) {
      found = block;
      high = middle;
    } else {
      low = middle + 1n;
    }
  }
  if (found.number !== low) found = await blockAt(low);
  return found;
}
