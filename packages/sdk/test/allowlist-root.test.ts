import { randomBytes } from 'node:crypto';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { allowlistRoot, checkAllowlistVersion, EMPTY_ALLOWLIST_ROOT, winnersHoldingAt, type AllowlistLeaf, type AllowlistVersion, type DrawProof } from '../src/index.js';

// The trees here are OpenZeppelin's own, built in the test: the SDK's rebuild must agree with them.
type Value = [address: string, quantity: string];
const ENCODING = ['address', 'uint256'];

const randomAddress = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
const randomValues = (n: number, quantity = (i: number) => String(1 + (i % 5))): Value[] => Array.from({ length: n }, (_, i) => [randomAddress(), quantity(i)]);

/** A version and its leaves as the platform serves them: each leaf with its proof from OpenZeppelin's tree. */
function served(values: Value[], overrides: Partial<AllowlistVersion> = {}): { version: AllowlistVersion; leaves: AllowlistLeaf[] } {
  const tree = StandardMerkleTree.of(values, ENCODING);
  const leaves = [...tree.entries()].map(([i, [address, quantity]]) => ({ address, quantity, proof: tree.getProof(i) }));
  const version = { version: 1, root: tree.root, count: values.length, unlistedWinners: 0, reason: 'finalized', publishedAt: '2025-01-01T12:00:00.000Z', ...overrides } as AllowlistVersion;
  return { version, leaves };
}

const at = (iso: string) => iso;
/** A draw proof's winner fields only: what the winners check reads. */
const drawProof = (winners: number, changes: Pick<DrawProof, 'disqualifiedWinners' | 'rerolledWinners'> = {}) =>
  ({ winners: Array.from({ length: winners }, (_, i) => ({ entryId: `ent_${i}`, position: i + 1 })), ...changes }) as DrawProof;

describe('allowlistRoot', () => {
  it("is @openzeppelin/merkle-tree's StandardMerkleTree root for every size from 1 to 40 leaves, whatever the order", () => {
    for (let n = 1; n <= 40; n++) {
      const values = randomValues(n, (i) => String(BigInt(i + 1) * 10n ** BigInt(i % 70)));
      const expected = StandardMerkleTree.of(values, ENCODING).root;
      expect(allowlistRoot(values.map(([address, quantity]) => ({ address, quantity }))), `${n} leaves`).toBe(expected);
      const shuffled = [...values].reverse().map(([address, quantity]) => ({ address: address.toLowerCase(), quantity: BigInt(quantity) }));
      expect(allowlistRoot(shuffled), `${n} leaves, reversed, lowercase, bigint`).toBe(expected);
    }
  });

  it('changes with any leaf: another quantity, another address, one leaf fewer', () => {
    const values = randomValues(9);
    const leaves = values.map(([address, quantity]) => ({ address, quantity }));
    const root = allowlistRoot(leaves);
    expect(allowlistRoot(leaves.map((l, i) => (i === 4 ? { ...l, quantity: `${l.quantity}0` } : l)))).not.toBe(root);
    expect(allowlistRoot(leaves.map((l, i) => (i === 4 ? { ...l, address: randomAddress() } : l)))).not.toBe(root);
    expect(allowlistRoot(leaves.slice(1))).not.toBe(root);
  });

  it('is the platform\'s empty root for no leaves, and refuses an address listed twice or malformed input', () => {
    expect(allowlistRoot([])).toBe(EMPTY_ALLOWLIST_ROOT);
    const address = randomAddress();
    expect(() => allowlistRoot([{ address, quantity: 1 }, { address: address.toLowerCase(), quantity: 2 }])).toThrow(/listed twice/);
    expect(() => allowlistRoot([{ address: '0x12', quantity: 1 }])).toThrow(TypeError);
    expect(() => allowlistRoot([{ address, quantity: '-1' }])).toThrow(TypeError);
  });
});

describe('checkAllowlistVersion', () => {
  const byCheck = (checks: ReturnType<typeof checkAllowlistVersion>) => Object.fromEntries(checks.map((c) => [c.check, c.ok]));

  it('holds for honestly served leaves whose winners match the draw proof, a shared wallet counting twice', () => {
    const values = randomValues(4, () => '2');
    values[0]![1] = '4'; // two winners named the same wallet: one leaf, twice the quantity
    const { version, leaves } = served(values, { unlistedWinners: 1 });
    const checks = checkAllowlistVersion({ version, leaves, quantityPerWinner: 2, drawProof: drawProof(6) });
    expect(checks.every((c) => c.ok === true), JSON.stringify(checks)).toBe(true);
    expect(checks.find((c) => c.check === 'winners')!.text).toBe('5 listed + 1 without a wallet = 6; the draw proof has 6 holding a position at 2025-01-01T12:00:00.000Z');
  });

  it('finds a tampered leaf (root and proof), a missing leaf (count, root, winners) and an odd quantity', () => {
    const { version, leaves } = served(randomValues(5, () => '1'));
    const tampered = leaves.map((l, i) => (i === 2 ? { ...l, quantity: '7' } : l));
    expect(byCheck(checkAllowlistVersion({ version, leaves: tampered, quantityPerWinner: 1, drawProof: drawProof(5) }))).toEqual({
      proofs: false,
      root: false,
      'leaf count': true,
      quantities: true,
      winners: false,
    });
    expect(byCheck(checkAllowlistVersion({ version, leaves: leaves.slice(1), quantityPerWinner: 1, drawProof: drawProof(5) }))).toEqual({
      proofs: true,
      root: false,
      'leaf count': false,
      quantities: true,
      winners: false,
    });
    const { version: v3, leaves: threes } = served(randomValues(3, () => '3'));
    expect(byCheck(checkAllowlistVersion({ version: v3, leaves: threes, quantityPerWinner: 2, drawProof: drawProof(3) }))).toMatchObject({ quantities: false, winners: false });
  });

  it('counts the winners holding a position when the version was published, and skips the count without a draw proof', () => {
    const proof = drawProof(5, {
      disqualifiedWinners: [
        { entryId: 'ent_0', position: 1, disqualifiedAt: at('2025-01-01T10:00:00.000Z'), replacedAt: at('2025-01-01T10:05:00.000Z') },
        { entryId: 'ent_1', position: 2, disqualifiedAt: at('2025-01-02T10:00:00.000Z') },
      ],
      rerolledWinners: [{ entryId: 'ent_9', position: 1, selectedAt: at('2025-01-01T10:05:00.000Z') }],
    });
    expect(winnersHoldingAt(proof, '2025-01-01T09:00:00.000Z')).toBe(5);
    expect(winnersHoldingAt(proof, '2025-01-01T10:00:00.000Z')).toBe(4);
    expect(winnersHoldingAt(proof, '2025-01-01T12:00:00.000Z')).toBe(5);
    expect(winnersHoldingAt(proof, '2025-01-03T00:00:00.000Z')).toBe(4);

    const { version, leaves } = served(randomValues(5, () => '1'));
    expect(byCheck(checkAllowlistVersion({ version, leaves, quantityPerWinner: 1, drawProof: proof })).winners).toBe(true);
    const skipped = checkAllowlistVersion({ version, leaves, quantityPerWinner: 1, drawProof: null });
    expect(skipped.find((c) => c.check === 'winners')).toMatchObject({ ok: null, text: expect.stringMatching(/not checked/) });
  });
});
