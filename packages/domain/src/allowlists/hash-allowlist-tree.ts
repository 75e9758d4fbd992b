import { keccak_256 } from '@noble/hashes/sha3.js';

// OpenZeppelin's StandardMerkleTree over (address, uint256), computed on bytes. The library hashes
// through ABI-encoder objects and hex strings, and sorts by converting hashes to BigInts: 100,000
// leaves took it about 30 s and 400 MB (bench:allowlist). The same tree from Buffers takes about a
// second, and the node array it yields is what is stored anyway (build-allowlist.test.ts holds the
// two to the same root, nodes and leaf positions). Keccak is @noble/hashes' (the copy the SDK
// verifies proofs with): hashing is nearly all of the time left, and it is faster than viem's.

const NODE_BYTES = 32;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT256_MAX = (1n << 256n) - 1n;

/** A leaf as the tree hashes it: 0x and 40 hex digits in any case (the caller has validated it), and a quantity ≥ 1. */
export interface AllowlistLeafBytesInput {
  address: string;
  quantity: bigint;
}

export interface HashedAllowlistTree {
  /** 0x + 64 hex: the tree's root. */
  root: string;
  /** Every node, 32 bytes each, in StandardMerkleTree's order: the root at 0, node i's children at 2i+1 and 2i+2, the leaves at the end. */
  nodes: Buffer;
  /** The node index of each input leaf, in input order. */
  treeIndexes: number[];
}

/** keccak256(keccak256(abi.encode(address, quantity))): StandardMerkleTree's leaf, hashed twice so no leaf passes for an inner node. */
function leafHash({ address, quantity }: AllowlistLeafBytesInput, index: number): Uint8Array {
  if (!ADDRESS.test(address)) throw new TypeError(`leaf ${index}: ${address} is not 0x and 40 hex digits`);
  if (quantity < 1n || quantity > UINT256_MAX) throw new RangeError(`leaf ${index}: quantity ${quantity} is not from 1 to 2^256 - 1`);
  const encoded = Buffer.alloc(64);
  encoded.write(address.slice(2), 12, 'hex');
  encoded.write(quantity.toString(16).padStart(64, '0'), 32, 'hex');
  return keccak_256(keccak_256(encoded));
}

/**
 * The tree StandardMerkleTree.of(leaves, ['address', 'uint256']) builds: leaves sorted by hash and
 * laid out from the end of the array (the smallest hash last), each inner node the hash of its
 * children in ascending order. Leaves must be distinct (one leaf per address is the caller's rule).
 */
export function hashAllowlistTree(leaves: readonly AllowlistLeafBytesInput[]): HashedAllowlistTree {
  if (leaves.length === 0) throw new RangeError('a tree needs at least one leaf');
  const hashes = leaves.map(leafHash);
  const byHash = hashes.map((_, i) => i).sort((a, b) => Buffer.compare(hashes[a]!, hashes[b]!));
  const size = 2 * leaves.length - 1;
  const nodes = Buffer.alloc(size * NODE_BYTES);
  const treeIndexes = new Array<number>(leaves.length);
  byHash.forEach((leaf, rank) => {
    const index = size - 1 - rank;
    nodes.set(hashes[leaf]!, index * NODE_BYTES);
    treeIndexes[leaf] = index;
  });
  const node = (i: number) => nodes.subarray(i * NODE_BYTES, (i + 1) * NODE_BYTES);
  const pair = Buffer.alloc(2 * NODE_BYTES);
  for (let i = size - 1 - leaves.length; i >= 0; i--) {
    const [left, right] = [node(2 * i + 1), node(2 * i + 2)];
    const ascending = Buffer.compare(left, right) <= 0;
    pair.set(ascending ? left : right, 0);
    pair.set(ascending ? right : left, NODE_BYTES);
    nodes.set(keccak_256(pair), i * NODE_BYTES);
  }
  return { root: `0x${nodes.toString('hex', 0, NODE_BYTES)}`, nodes, treeIndexes };
}
