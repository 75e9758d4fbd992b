import { describe, expect, it } from 'vitest';
import { judgeDrawProof } from '../src/cli/draw-verdict.js';
import { proofShapeProblems } from '../src/draw/proof-shape.js';
import { describeDrawChecks, describeWinnerChanges, verifyDraw, type DrawProof, type VerifyDrawOptions } from '../src/index.js';
import { drawEntries, localChain, localDrandProof, seedHex } from './support/draw-proofs.js';

/**
 * Issue 34: rerolls were invisible on the public proof. The proof now lists disqualified and
 * rerolled winners with times; the verifier checks each reroll against the draw's own order and
 * says how far down it went.
 */

const entries = drawEntries(40, (i) => (i % 4 === 0 ? '2' : '1'));
const local = localChain();
const trust: VerifyDrawOptions = { trustedChains: [local.chain] };
const base = localDrandProof(local, seedHex('rerolls'), entries, 3, '2025-06-15T19:50:41.000Z');
const verified = verifyDraw(base, trust);
const drawWinners = verified.recomputedWinners;

/** Walks the order one place past the winners: the entry a reroll of position 2 takes. */
function rerolledProof(): DrawProof & Required<Pick<DrawProof, 'disqualifiedWinners' | 'rerolledWinners'>> {
  const ranked = rankedIds();
  return {
    ...base,
    disqualifiedWinners: [{ entryId: ranked[1]!, position: 2, disqualifiedAt: '2025-06-16T10:00:00.000Z', replacedAt: '2025-06-16T10:05:00.000Z' }],
    rerolledWinners: [{ entryId: ranked[5]!, position: 2, selectedAt: '2025-06-16T10:05:00.000Z' }],
  };
}
function rankedIds(): string[] {
  // The full order: the verifier reports ranks, so take them from a proof that rerolls every entry.
  const all = { ...base, rerolledWinners: entries.map((e) => ({ entryId: e.id, position: 1, selectedAt: '2025-06-16T10:05:00.000Z' })) };
  const ranks = verifyDraw(all, trust).rerolled!;
  return [...ranks].sort((a, b) => a.rank! - b.rank!).map((r) => r.entryId);
}

describe('disqualified and rerolled winners on a proof', () => {
  it('verifies a reroll down the draw\'s own order, and says when and how far down it went', () => {
    expect(rankedIds().slice(0, 3)).toEqual(drawWinners);
    const proof = rerolledProof();
    const result = verifyDraw(proof, trust);
    expect(result).toMatchObject({ valid: true, rerolled: [{ entryId: proof.rerolledWinners[0]!.entryId, position: 2, rank: 6 }] });
    expect(result.recomputedWinners).toEqual(verified.recomputedWinners);
    expect(describeWinnerChanges(proof, result)).toEqual([
      `#2 ${proof.disqualifiedWinners[0]!.entryId} disqualified 2025-06-16 10:00:00.000 UTC; rerolled 2025-06-16 10:05:00.000 UTC to ${proof.rerolledWinners[0]!.entryId} (#6 of the draw's order)`,
    ]);
    const check = describeDrawChecks(proof, result, trust.trustedChains).find((c) => c.check === 'winner changes');
    expect(check).toEqual({ check: 'winner changes', ok: true, text: "1 disqualified after the draw, 1 position rerolled, each to an entry below the draw's winners (down to #6 of its order)" });
    expect(judgeDrawProof(proof, undefined, trust).report).toContain(`rerolled 2025-06-16 10:05:00.000 UTC to ${proof.rerolledWinners[0]!.entryId} (#6 of the draw's order)`);
  });

  it('refuses a reroll to an entry outside the draw, or to one of its own winners, and a disqualification of an entry that never held the position', () => {
    const proof = rerolledProof();
    const reasons = (p: DrawProof) => verifyDraw(p, trust).failures.map((f) => f.reason);
    expect(reasons({ ...proof, rerolledWinners: [{ ...proof.rerolledWinners[0]!, entryId: 'ent_ZZZZZZZZZZZZZZZZZZZZZZZZZZ' }] })).toEqual(['winner_change_mismatch']);
    expect(reasons({ ...proof, rerolledWinners: [{ ...proof.rerolledWinners[0]!, entryId: drawWinners[0]! }] })).toEqual(['winner_change_mismatch']);
    expect(reasons({ ...proof, disqualifiedWinners: [{ ...proof.disqualifiedWinners[0]!, position: 3 }] })).toEqual(['winner_change_mismatch']);
  });

  it('refuses change lists that are not entries at positions with times as malformed', () => {
    expect(proofShapeProblems({ ...base, rerolledWinners: [{ entryId: 'x', position: 1 }] })).toEqual(['rerolledWinners must list entryId, position and selectedAt']);
    expect(proofShapeProblems({ ...base, disqualifiedWinners: {} })).toEqual([
      'disqualifiedWinners must list entryId, position and disqualifiedAt (and replacedAt once rerolled)',
    ]);
  });
});
