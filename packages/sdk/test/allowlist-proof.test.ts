import { randomBytes } from 'node:crypto';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { allowlistLeafHash, verifyAllowlistProof } from '../src/index.js';

// The trees here are OpenZeppelin's own, built in the test: the SDK's check must agree with them.
type Leaf = [address: string, quantity: string];
const ENCODING = ['address', 'uint256'];

const randomAddress = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
const randomLeaves = (n: number): Leaf[] => Array.from({ length: n }, (_, i) => [randomAddress(), String(1 + (i % 7) * 1000 + (randomBytes(1)[0]! % 100))]);

describe('allowlistLeafHash', () => {
  it("is @openzeppelin/merkle-tree's leaf hash of (address, uint256), for small and 256-bit quantities", () => {
    const leaves: Leaf[] = [...randomLeaves(20), [randomAddress(), ((1n << 256n) - 1n).toString()], [randomAddress(), '0']];
    const tree = StandardMerkleTree.of(leaves, ENCODING);
    for (const [address, quantity] of leaves) expect(allowlistLeafHash(address, quantity)).toBe(tree.leafHash([address, quantity]));
  });

  it('is the same for a checksummed, a lowercase and an uppercase address, and for bigint, number and decimal quantities', () => {
    const address = randomAddress();
    const expected = allowlistLeafHash(address, 5n);
    expect(allowlistLeafHash(address.toLowerCase(), 5)).toBe(expected);
    expect(allowlistLeafHash(`0x${address.slice(2).toUpperCase()}`, '5')).toBe(expected);
  });

  it('refuses malformed input with a TypeError rather than hashing something else', () => {
    const address = randomAddress();
    const lower = address.toLowerCase();
    // EIP-55's own example, and the same with one letter's case flipped (no longer its checksum).
    expect(allowlistLeafHash('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 1)).toBe(allowlistLeafHash('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', 1));
    expect(() => allowlistLeafHash('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 1)).toThrow(/EIP-55/);
    for (const bad of ['', '0x', lower.slice(0, 41), `${lower}00`, lower.slice(2), `0x${'g'.repeat(40)}`]) expect(() => allowlistLeafHash(bad, 1), bad).toThrow(TypeError);
    for (const bad of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN, '', '-1', '1e3', '0x10', ' 1', '01', -1n, 1n << 256n]) {
      expect(() => allowlistLeafHash(address, bad), String(bad)).toThrow(TypeError);
    }
    expect(() => allowlistLeafHash(address, null as never)).toThrow(TypeError);
  });
});

describe('verifyAllowlistProof', () => {
  const leaves = randomLeaves(500);
  const tree = StandardMerkleTree.of(leaves, ENCODING);

  it("accepts every leaf's proof from a 500-leaf tree, as StandardMerkleTree.verify does", () => {
    for (const [i, [address, quantity]] of tree.entries()) {
      const proof = tree.getProof(i);
      expect(StandardMerkleTree.verify(tree.root, ENCODING, [address, quantity], proof)).toBe(true);
      expect(verifyAllowlistProof({ root: tree.root, address, quantity, proof })).toBe(true);
    }
  });

  it('accepts the address in lowercase and the root and proof in uppercase hex', () => {
    const [address, quantity] = leaves[7]!;
    const upper = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;
    const proof = tree.getProof(7).map(upper);
    expect(verifyAllowlistProof({ root: upper(tree.root), address: address.toLowerCase(), quantity: BigInt(quantity), proof })).toBe(true);
  });

  it("rejects a wrong quantity, another leaf's proof, a non-member and a tampered proof element", () => {
    const [address, quantity] = leaves[42]!;
    const proof = tree.getProof(42);
    expect(verifyAllowlistProof({ root: tree.root, address, quantity, proof })).toBe(true);
    expect(verifyAllowlistProof({ root: tree.root, address, quantity: BigInt(quantity) + 1n, proof })).toBe(false);
    expect(verifyAllowlistProof({ root: tree.root, address, quantity, proof: tree.getProof(43) })).toBe(false);
    expect(verifyAllowlistProof({ root: tree.root, address: randomAddress(), quantity, proof })).toBe(false);
    expect(verifyAllowlistProof({ root: tree.root, address, quantity, proof: proof.slice(0, -1) })).toBe(false);
    for (let step = 0; step < proof.length; step++) {
      const tampered = [...proof];
      const last = tampered[step]!.at(-1)!;
      tampered[step] = `${tampered[step]!.slice(0, -1)}${last === '0' ? '1' : '0'}`;
      expect(verifyAllowlistProof({ root: tree.root, address, quantity, proof: tampered }), `step ${step}`).toBe(false);
    }
  });

  it('verifies a one-leaf tree with an empty proof (the root is the leaf)', () => {
    const only: Leaf = [randomAddress(), '3'];
    const single = StandardMerkleTree.of([only], ENCODING);
    expect(single.getProof(0)).toEqual([]);
    expect(single.root).toBe(allowlistLeafHash(...only));
    expect(verifyAllowlistProof({ root: single.root, address: only[0], quantity: only[1], proof: [] })).toBe(true);
    expect(verifyAllowlistProof({ root: single.root, address: only[0], quantity: 4, proof: [] })).toBe(false);
  });

  it('refuses a malformed root or proof element with a TypeError naming it', () => {
    const [address, quantity] = leaves[0]!;
    const proof = tree.getProof(0);
    expect(() => verifyAllowlistProof({ root: tree.root.slice(0, -1), address, quantity, proof })).toThrow(/root/);
    expect(() => verifyAllowlistProof({ root: tree.root.slice(2), address, quantity, proof })).toThrow(TypeError);
    expect(() => verifyAllowlistProof({ root: tree.root, address, quantity, proof: [proof[0]!, 'zz'] })).toThrow(/proof\[1\]/);
    expect(() => verifyAllowlistProof({ root: tree.root, address, quantity, proof: proof[0] as never })).toThrow(TypeError);
    expect(() => verifyAllowlistProof({ root: tree.root, address: 'nobody', quantity, proof })).toThrow(/address/);
  });
});
