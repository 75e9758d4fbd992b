import { toHex } from '../crypto/encoding.js';
import { addressBytes } from './allowlist-input.js';
import { compareBytes, hashPair, leafHashBytes } from './allowlist-proof.js';
import type { AllowlistQuantity } from './allowlist-input.js';

/** The root the platform publishes for a version with no leaves: no proof folds to it. */
export const EMPTY_ALLOWLIST_ROOT = `0x${'0'.repeat(64)}`;

/**
 * The root of the allowlist tree of `leaves`, rebuilt offline as OpenZeppelin's StandardMerkleTree
 * builds it (`StandardMerkleTree.of(values, ['address','uint256'])`, leaves sorted): the leaf
 * hashes sorted by value, laid out at the end of the node array, each inner node the sorted-pair
 * hash of its two children, the root first. Anyone holding a public leaf list can check that the
 * published root was built from exactly these leaves. An address listed twice is a TypeError (the
 * platform lists each once), as is malformed input.
 */
export function allowlistRoot(leaves: ReadonlyArray<{ address: string; quantity: AllowlistQuantity }>): string {
  if (leaves.length === 0) return EMPTY_ALLOWLIST_ROOT;
  const seen = new Set<string>();
  for (const { address } of leaves) {
    const key = toHex(addressBytes(address));
    if (seen.has(key)) throw new TypeError(`address ${address} is listed twice: an allowlist has one leaf per address`);
    seen.add(key);
  }
  const sorted = leaves.map(({ address, quantity }) => leafHashBytes(address, quantity)).sort(compareBytes);
  // Node i's children are 2i+1 and 2i+2; the leaves fill the last sorted.length slots, in reverse.
  const tree = new Array<Uint8Array>(2 * sorted.length - 1);
  sorted.forEach((leaf, i) => (tree[tree.length - 1 - i] = leaf));
  for (let i = tree.length - 1 - sorted.length; i >= 0; i--) tree[i] = hashPair(tree[2 * i + 1]!, tree[2 * i + 2]!);
  return `0x${toHex(tree[0]!)}`;
}
