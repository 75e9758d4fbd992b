import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { ALLOWLIST_LEAF_ENCODING } from '@raffle/sdk';
import { getAddress, isAddress } from 'viem';
import { hashAllowlistTree } from './hash-allowlist-tree.js';

/**
 * An allowlist as OpenZeppelin's StandardMerkleTree over (address, uint256 quantity): the root is
 * what a raffle commits to, the dump is what is stored, and a proof from it is what an entrant
 * presents (checked offline by @raffle/sdk's verifyAllowlistProof, on chain by MerkleProof.verify).
 */

/** A stored leaf: the checksummed address and the quantity as a decimal string (JSON has no bigint). */
export type AllowlistLeafValue = [address: string, quantity: string];
/** The tree's JSON dump (format standard-v1): what is stored. */
export type AllowlistTreeDump = ReturnType<StandardMerkleTree<AllowlistLeafValue>['dump']>;

export interface AllowlistLeafInput {
  address: string;
  quantity: bigint | number | string;
}

export interface AllowlistTree {
  root: string;
  leafEncoding: ['address', 'uint256'];
  count: number;
  dump: AllowlistTreeDump;
}

export type AllowlistProblem = 'invalid_address' | 'invalid_quantity' | 'duplicate_address' | 'empty';

/** Why a list cannot become a tree, with the offending row: the caller decides what to tell whom. */
export class AllowlistInputError extends Error {
  constructor(
    readonly problem: AllowlistProblem,
    message: string,
    readonly index?: number,
  ) {
    super(message);
    this.name = 'AllowlistInputError';
  }
}

const UINT256_MAX = (1n << 256n) - 1n;
const NODE_BYTES = 32;

function checksumAddress(address: unknown, index: number): string {
  // strict: a mixed-case address must carry a correct EIP-55 checksum; one case carries none.
  if (typeof address !== 'string' || !isAddress(address, { strict: true })) {
    throw new AllowlistInputError('invalid_address', `leaf ${index}: address ${String(address)} is not an address (0x and 40 hex digits, any case, or a correct checksum)`, index);
  }
  return getAddress(address);
}

function quantityOf(quantity: unknown, index: number): string {
  let value: bigint | undefined;
  if (typeof quantity === 'bigint') value = quantity;
  else if (typeof quantity === 'number' && Number.isSafeInteger(quantity)) value = BigInt(quantity);
  else if (typeof quantity === 'string' && /^[0-9]+$/.test(quantity)) value = BigInt(quantity);
  if (value === undefined || value < 1n || value > UINT256_MAX) {
    throw new AllowlistInputError('invalid_quantity', `leaf ${index}: quantity ${String(quantity)} must be an integer from 1 to 2^256 - 1`, index);
  }
  return value.toString();
}

/**
 * The tree of `leaves`: addresses checksummed, one leaf per address (a repeat is an error, not a
 * merge: whether to sum, keep the first or refuse is the caller's policy), every quantity ≥ 1.
 */
export function buildAllowlistTree(leaves: readonly AllowlistLeafInput[]): AllowlistTree {
  if (leaves.length === 0) throw new AllowlistInputError('empty', 'an allowlist needs at least one address');
  const rows = leaves.map(({ address, quantity }, index): AllowlistLeafValue => [checksumAddress(address, index), quantityOf(quantity, index)]);
  // Sorted by address before building: StandardMerkleTree already sorts the leaves by hash, so the
  // root would not depend on input order anyway, but the dump lists values in input order, and
  // the stored dump must be the same bytes for the same set however the list arrived.
  const byAddress = rows.map((row, index) => ({ row, index, key: row[0].toLowerCase() })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 1; i < byAddress.length; i++) {
    const [previous, current] = [byAddress[i - 1]!, byAddress[i]!];
    if (previous.key === current.key) {
      const [first, second] = [Math.min(previous.index, current.index), Math.max(previous.index, current.index)];
      throw new AllowlistInputError('duplicate_address', `leaves ${first} and ${second} both list ${current.row[0]}: one leaf per address`, second);
    }
  }
  // The same tree and dump as StandardMerkleTree.of over these rows, hashed on bytes (hash-allowlist-tree.ts).
  const { root, nodes, treeIndexes } = hashAllowlistTree(byAddress.map(({ row: [address, quantity] }) => ({ address, quantity: BigInt(quantity) })));
  const tree = Array.from({ length: nodes.length / NODE_BYTES }, (_, i) => `0x${nodes.toString('hex', i * NODE_BYTES, (i + 1) * NODE_BYTES)}`);
  const dump: AllowlistTreeDump = { format: 'standard-v1', leafEncoding: [...ALLOWLIST_LEAF_ENCODING], tree, values: byAddress.map(({ row }, i) => ({ value: row, treeIndex: treeIndexes[i]! })) };
  return { root, leafEncoding: ['address', 'uint256'], count: byAddress.length, dump };
}

/** A loaded dump with its address index: loading validates every hash, so it is done once per dump. */
interface LoadedAllowlist {
  tree: StandardMerkleTree<AllowlistLeafValue>;
  indexByAddress: Map<string, number>;
}

const loaded = new WeakMap<AllowlistTreeDump, LoadedAllowlist>();

function load(dump: AllowlistTreeDump): LoadedAllowlist {
  const cached = loaded.get(dump);
  if (cached) return cached;
  const encoding = dump.leafEncoding;
  if (encoding?.length !== 2 || encoding[0] !== 'address' || encoding[1] !== 'uint256') {
    throw new TypeError(`not an allowlist dump: leaf encoding ${JSON.stringify(encoding)}, expected ["address","uint256"]`);
  }
  const tree = StandardMerkleTree.load<AllowlistLeafValue>(dump);
  const indexByAddress = new Map<string, number>();
  for (const [index, [address]] of tree.entries()) indexByAddress.set(address.toLowerCase(), index);
  const entry = { tree, indexByAddress };
  loaded.set(dump, entry);
  return entry;
}

/**
 * The quantity and proof of `address` (any case) from a stored dump, without rebuilding the tree;
 * undefined when the address is not on the list (and for a string that is no address).
 */
export function proofFromDump(dump: AllowlistTreeDump, address: string): { quantity: string; proof: string[] } | undefined {
  const { tree, indexByAddress } = load(dump);
  const index = indexByAddress.get(address.toLowerCase());
  if (index === undefined) return undefined;
  return { quantity: tree.at(index)![1], proof: tree.getProof(index) };
}
