import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DRAW_ALGORITHM, drawCommitment, entriesDigest, rankEntries, verifyDraw, type DrawEntry, type DrawProof } from '../src/index.js';

const seedHex = (label: string) => createHash('sha256').update(label).digest('hex');

const entries: DrawEntry[] = Array.from({ length: 40 }, (_, i) => ({
  id: `ent_${String(i).padStart(26, '0')}`,
  userId: `usr_${i}`,
  weight: i % 4 === 0 ? '2.5' : '1',
}));

function proofFor(seed: string, eligible: DrawEntry[], spots: number): DrawProof {
  const seedBytes = Buffer.from(seed, 'hex');
  return {
    algorithm: DRAW_ALGORITHM,
    drawCommitment: drawCommitment(seedBytes),
    seed,
    entriesDigest: entriesDigest(eligible),
    entries: eligible,
    winners: rankEntries(seedBytes, eligible)
      .slice(0, spots)
      .map((e, i) => ({ entryId: e.id, position: i + 1 })),
  };
}

describe('verifyDraw', () => {
  it('accepts an honest proof and reproduces its winners', () => {
    const proof = proofFor(seedHex('honest'), entries, 5);
    const result = verifyDraw(proof);
    expect(result).toEqual({ valid: true, problems: [], recomputedWinners: proof.winners.map((w) => w.entryId) });
  });

  it('does not depend on the order entries are listed in', () => {
    const proof = proofFor(seedHex('order'), entries, 5);
    expect(verifyDraw({ ...proof, entries: [...proof.entries].reverse() }).valid).toBe(true);
  });

  it('refuses a proof whose seed does not match the commitment', () => {
    const proof = proofFor(seedHex('a'), entries, 5);
    const result = verifyDraw({ ...proof, seed: seedHex('b') });
    expect(result.valid).toBe(false);
    expect(result.problems).toContain('sha256(seed) does not match drawCommitment');
  });

  it('refuses a proof with a changed entry or weight', () => {
    const proof = proofFor(seedHex('entries'), entries, 5);
    const changedWeight = proof.entries.map((e, i) => (i === 7 ? { ...e, weight: '50' } : e));
    expect(verifyDraw({ ...proof, entries: changedWeight }).problems).toContain('the entries do not match entriesDigest');
    const dropped = proof.entries.slice(1);
    expect(verifyDraw({ ...proof, entries: dropped }).valid).toBe(false);
  });

  it('refuses winners the draw did not produce, or in another order', () => {
    const proof = proofFor(seedHex('winners'), entries, 3);
    const loser = rankEntries(Buffer.from(proof.seed, 'hex'), entries)[10]!;
    const swapped = [proof.winners[1]!, proof.winners[0]!, proof.winners[2]!].map((w, i) => ({ ...w, position: i + 1 }));
    expect(verifyDraw({ ...proof, winners: swapped }).valid).toBe(false);
    expect(verifyDraw({ ...proof, winners: [{ entryId: loser.id, position: 1 }, ...proof.winners.slice(1)] }).valid).toBe(false);
    expect(verifyDraw({ ...proof, algorithm: 'something-else' }).valid).toBe(false);
    expect(verifyDraw({ ...proof, seed: 'not-hex' }).valid).toBe(false);
  });

  it('gives different results for different seeds', () => {
    const a = proofFor(seedHex('one'), entries, 5).winners.map((w) => w.entryId);
    const b = proofFor(seedHex('two'), entries, 5).winners.map((w) => w.entryId);
    expect(a).not.toEqual(b);
  });

  it('makes weight proportional to the chance of winning a single spot (fixed seed list)', () => {
    // Two entries weighted 1 and 3: the heavier one should win a single spot 3/4 of the time.
    const pair: DrawEntry[] = [
      { id: 'ent_light', userId: 'u1', weight: '1' },
      { id: 'ent_heavy', userId: 'u2', weight: '3' },
    ];
    const runs = 4000;
    let heavyWins = 0;
    for (let i = 0; i < runs; i++) {
      if (rankEntries(Buffer.from(seedHex(`stat-${i}`), 'hex'), pair)[0]!.id === 'ent_heavy') heavyWins++;
    }
    // Binomial(4000, 0.75) has a standard deviation of about 0.0068: ±0.03 is over 4 sigma.
    expect(Math.abs(heavyWins / runs - 0.75)).toBeLessThan(0.03);
  });

  it('gives equal weights equal chances (fixed seed list)', () => {
    const trio: DrawEntry[] = ['a', 'b', 'c'].map((x) => ({ id: `ent_${x}`, userId: x, weight: '1' }));
    const firsts = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const first = rankEntries(Buffer.from(seedHex(`eq-${i}`), 'hex'), trio)[0]!.id;
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    for (const count of firsts.values()) expect(Math.abs(count / 3000 - 1 / 3)).toBeLessThan(0.04);
  });
});
