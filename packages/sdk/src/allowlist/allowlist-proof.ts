import { toHex } from '../crypto/encoding.js';
import { keccak256 } from '../crypto/keccak.js';
import { addressBytes, bytes32, quantityValue, type AllowlistQuantity } from './allowlist-input.js';

/**
 * The allowlist's Merkle tree as OpenZeppelin's StandardMerkleTree builds it with the leaf
 * encoding ['address', 'uint256'], checked offline: the leaf is
 * keccak256(keccak256(abi.encode(address, quantity))) (hashed twice so no leaf can pass for an
 * inner node), and each proof step hashes the sorted pair, as MerkleProof.verify does on chain.
 */

export type { AllowlistQuantity } from './allowlist-input.js';

/** The leaf encoding the allowlist's tree is built with. */
export const ALLOWLIST_LEAF_ENCODING = ['address', 'uint256'] as const;

export interface AllowlistProofInput {
  /** The tree's root, 0x and 64 hex digits. */
  root: string;
  /** The address, checksummed or in a single case. */
  address: string;
  /** How many the address may claim, as the allowlist lists it. */
  quantity: AllowlistQuantity;
  /** The sibling hashes from the leaf up, each 0x and 64 hex digits (empty for a one-leaf tree). */
  proof: readonly string[];
}

/** abi.encode(address, uint256): two 32-byte words, each value right-aligned. */
function abiEncodeLeaf(address: Uint8Array, quantity: bigint): Uint8Array {
  const encoded = new Uint8Array(64);
  encoded.set(address, 12);
  for (let i = 63, rest = quantity; rest > 0n; i--, rest >>= 8n) encoded[i] = Number(rest & 0xffn);
  return encoded;
}

/** The leaf hash of (address, quantity) as bytes (the tree's `leafHash`). */
export function leafHashBytes(address: string, quantity: AllowlistQuantity): Uint8Array {
  return keccak256(keccak256(abiEncodeLeaf(addressBytes(address), quantityValue(quantity))));
}

/** The leaf hash of (address, quantity), 0x-prefixed lowercase hex: the tree's `leafHash([address, quantity])`. */
export function allowlistLeafHash(address: string, quantity: AllowlistQuantity): string {
  return `0x${toHex(leafHashBytes(address, quantity))}`;
}

/** Byte order of two equal-length hashes: how StandardMerkleTree sorts its leaves and each pair. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** An inner node: keccak256 of the two children, the smaller first (OpenZeppelin's `hashPair`). */
export function hashPair(a: Uint8Array, b: Uint8Array): Uint8Array {
  const [first, second] = compareBytes(a, b) <= 0 ? [a, b] : [b, a];
  const joined = new Uint8Array(64);
  joined.set(first, 0);
  joined.set(second, 32);
  return keccak256(joined);
}

/**
 * Whether `address` may claim `quantity` under the allowlist whose tree has `root`, by `proof`.
 * False for a non-member, another quantity or a wrong proof; a TypeError for malformed input.
 */
export function verifyAllowlistProof({ root, address, quantity, proof }: AllowlistProofInput): boolean {
  const rootBytes = bytes32(root, 'root');
  if (!Array.isArray(proof)) throw new TypeError('proof must be an array of 32-byte hashes');
  const siblings = proof.map((step, i) => bytes32(step, `proof[${i}]`));
  let node = leafHashBytes(address, quantity);
  for (const sibling of siblings) node = hashPair(node, sibling);
  return compareBytes(node, rootBytes) === 0;
}
