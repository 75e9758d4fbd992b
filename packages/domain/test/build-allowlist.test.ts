import { randomBytes } from 'node:crypto';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { verifyAllowlistProof } from '@raffle/sdk';
import { getAddress } from 'viem';
import { describe, expect, it, vi } from 'vitest';
import { AllowlistInputError, allowlistFromWinners, buildAllowlistTree, proofFromDump, type AllowlistLeafInput } from '../src/index.js';

const ENCODING = ['address', 'uint256'];
const randomAddress = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
const randomLeaves = (n: number): AllowlistLeafInput[] => Array.from({ length: n }, () => ({ address: randomAddress(), quantity: 1 + (randomBytes(2).readUInt16BE() % 50) }));

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomBytes(4).readUInt32BE() % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The same tree built in the test straight from OpenZeppelin, leaves sorted by address as the builder sorts them. */
function referenceTree(leaves: readonly AllowlistLeafInput[]) {
  const values = leaves.map(({ address, quantity }): [string, string] => [getAddress(address), String(quantity)]);
  values.sort(([a], [b]) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
  return StandardMerkleTree.of(values, ENCODING);
}

describe('buildAllowlistTree over 500 random leaves', () => {
  const leaves = randomLeaves(500);
  const built = buildAllowlistTree(leaves);

  it("has the root and dump of StandardMerkleTree.of over the same leaves, whatever the input order", () => {
    const reference = referenceTree(leaves);
    expect(built).toMatchObject({ root: reference.root, leafEncoding: ['address', 'uint256'], count: 500 });
    expect(built.dump).toEqual(reference.dump());
    const again = buildAllowlistTree(shuffled(leaves));
    expect(again.root).toBe(built.root);
    expect(JSON.stringify(again.dump)).toBe(JSON.stringify(built.dump));
  });

  it('gives every leaf a proof from the dump that the SDK and StandardMerkleTree.verify both accept', () => {
    const stored = JSON.parse(JSON.stringify(built.dump)) as typeof built.dump;
    for (const { address, quantity } of leaves) {
      const found = proofFromDump(stored, address.toLowerCase());
      expect(found?.quantity).toBe(String(quantity));
      expect(verifyAllowlistProof({ root: built.root, address, quantity, proof: found!.proof })).toBe(true);
      expect(StandardMerkleTree.verify(built.root, ENCODING, [address, String(quantity)], found!.proof)).toBe(true);
    }
  });

  it('loads (and validates) a stored dump once, however many proofs are read from it', () => {
    const stored = JSON.parse(JSON.stringify(built.dump)) as typeof built.dump;
    const load = vi.spyOn(StandardMerkleTree, 'load');
    try {
      for (const { address } of leaves.slice(0, 50)) expect(proofFromDump(stored, address)).toBeDefined();
      expect(load).toHaveBeenCalledTimes(1);
    } finally {
      load.mockRestore();
    }
  });

  it("rejects a wrong quantity, another leaf's proof, a non-member and a tampered proof element", () => {
    const [{ address, quantity }, other] = [leaves[10]!, leaves[11]!];
    const { proof } = proofFromDump(built.dump, address)!;
    const verify = (p: { address?: string; quantity?: bigint | number; proof?: string[] }) =>
      verifyAllowlistProof({ root: built.root, address: p.address ?? address, quantity: p.quantity ?? quantity, proof: p.proof ?? proof });
    expect(verify({})).toBe(true);
    expect(verify({ quantity: BigInt(quantity) + 1n })).toBe(false);
    expect(verify({ proof: proofFromDump(built.dump, other.address)!.proof })).toBe(false);
    const stranger = randomAddress();
    expect(proofFromDump(built.dump, stranger)).toBeUndefined();
    expect(verify({ address: stranger })).toBe(false);
    const tampered = [...proof];
    tampered[3] = `0x${(BigInt(tampered[3]!) ^ 1n).toString(16).padStart(64, '0')}`;
    expect(verify({ proof: tampered })).toBe(false);
    expect(StandardMerkleTree.verify(built.root, ENCODING, [address, String(quantity)], tampered)).toBe(false);
  });
});

describe('buildAllowlistTree rules', () => {
  it('builds a one-leaf tree whose proof is empty', () => {
    const address = randomAddress();
    const built = buildAllowlistTree([{ address, quantity: 2n }]);
    expect(built.count).toBe(1);
    expect(proofFromDump(built.dump, address)).toEqual({ quantity: '2', proof: [] });
    expect(verifyAllowlistProof({ root: built.root, address, quantity: 2, proof: [] })).toBe(true);
  });

  it('stores checksummed addresses: a lowercase and a checksummed list give the same tree', () => {
    const leaves = randomLeaves(20);
    const lower = buildAllowlistTree(leaves.map((l) => ({ ...l, address: l.address.toLowerCase() })));
    expect(lower.root).toBe(buildAllowlistTree(leaves).root);
    expect(lower.dump.values.map(({ value }) => value[0])).toEqual(leaves.map((l) => l.address).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
  });

  it('refuses a repeated address, in any case, naming both rows', () => {
    const leaves = randomLeaves(5);
    const repeated = [...leaves, { address: leaves[1]!.address.toLowerCase(), quantity: 9 }];
    expect(() => buildAllowlistTree(repeated)).toThrow(AllowlistInputError);
    expect(() => buildAllowlistTree(repeated)).toThrow(`leaves 1 and 5 both list ${leaves[1]!.address}: one leaf per address`);
    expect(() => buildAllowlistTree(repeated)).toThrow(expect.objectContaining({ problem: 'duplicate_address', index: 5 }) as Error);
  });

  it('refuses a quantity below 1 or not an integer, a malformed address, and an empty list', () => {
    const address = randomAddress();
    for (const quantity of [0, 0n, '0', -1, 1.5, '1.5', 'x', Number.NaN]) {
      expect(() => buildAllowlistTree([{ address, quantity }]), String(quantity)).toThrow(expect.objectContaining({ problem: 'invalid_quantity', index: 0 }) as Error);
    }
    for (const bad of ['0x1234', 'nobody', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed']) {
      expect(() => buildAllowlistTree([{ address, quantity: 1 }, { address: bad, quantity: 1 }]), bad).toThrow(expect.objectContaining({ problem: 'invalid_address', index: 1 }) as Error);
    }
    expect(() => buildAllowlistTree([])).toThrow(expect.objectContaining({ problem: 'empty' }) as Error);
  });

  it('refuses a dump of another leaf encoding or a corrupted one', () => {
    const address = randomAddress();
    const built = buildAllowlistTree([{ address, quantity: 1 }, { address: randomAddress(), quantity: 2 }]);
    expect(() => proofFromDump({ ...built.dump, leafEncoding: ['address'] }, address)).toThrow(/leaf encoding/);
    const corrupted = JSON.parse(JSON.stringify(built.dump)) as typeof built.dump;
    corrupted.values[0]!.value[1] = '7';
    expect(() => proofFromDump(corrupted, address)).toThrow();
  });
});

describe('allowlistFromWinners: the stored tree, hashed on bytes', () => {
  // Sizes whose trees are full, one short, one over, and odd: the leaves' layout at the array's end differs for each.
  it.each([1, 2, 3, 7, 64, 65, 300])('stores the nodes and leaf positions of StandardMerkleTree.of over %i winners', (n) => {
    const wallets = Array.from({ length: n }, () => randomAddress());
    const winners = wallets.map((wallet, i) => ({ winId: `win_${i}`, userId: `usr_${i}`, wallet: i % 2 ? wallet : wallet.toLowerCase() }));
    const list = allowlistFromWinners(winners, 3);
    const reference = StandardMerkleTree.of(wallets.map((w) => [w, '3']), ENCODING);
    const dump = reference.dump();
    expect(list.root).toBe(reference.root);
    expect(list.nodes.length).toBe(32 * dump.tree.length);
    expect(dump.tree.map((_, i) => `0x${list.nodes.toString('hex', 32 * i, 32 * (i + 1))}`)).toEqual(dump.tree);
    const referenceIndex = new Map(dump.values.map(({ value, treeIndex }) => [value[0]!.toLowerCase(), treeIndex]));
    expect(list.leaves).toHaveLength(n);
    for (const leaf of list.leaves) {
      expect(leaf.quantity).toBe('3');
      expect(leaf.treeIndex).toBe(referenceIndex.get(leaf.address));
    }
    expect(list.unlistedWinners).toBe(0);
  });

  it('sums the quantities of a wallet two winners share, and counts winners without an EVM wallet as unlisted', () => {
    const [shared, other] = [randomAddress(), randomAddress()];
    const list = allowlistFromWinners(
      [
        { winId: 'win_1', userId: 'usr_1', wallet: shared },
        { winId: 'win_2', userId: 'usr_2', wallet: shared.toLowerCase() },
        { winId: 'win_3', userId: 'usr_3', wallet: other },
        { winId: 'win_4', userId: 'usr_4', wallet: null },
        { winId: 'win_5', userId: 'usr_5', wallet: 'So11111111111111111111111111111111111111112' },
      ],
      2,
    );
    expect(list.root).toBe(StandardMerkleTree.of([[shared, '4'], [other, '2']], ENCODING).root);
    expect(list.leaves.map((l) => [l.address, l.quantity])).toEqual([[shared.toLowerCase(), '4'], [other.toLowerCase(), '2']].sort(([a], [b]) => (a! < b! ? -1 : 1)));
    expect(list.unlistedWinners).toBe(2);
  });
});
