import { describe, expect, it } from 'vitest';
import { rankEntries, verifyDraw, type DrawEntry, type DrawProof } from '../src/index.js';
import { drawEntries, foldedFirstWinner, honestProof, reforgedProof, seedHex } from './support/draw-proofs.js';

const entries = drawEntries(40, (i) => (i % 4 === 0 ? '2.5' : '1'));
const proofFor = honestProof;
const reasonsOf = (proof: DrawProof) => verifyDraw(proof).failures.map((f) => f.reason);

describe('verifyDraw', () => {
  it('accepts an honest proof and reproduces its winners', () => {
    const proof = proofFor(seedHex('honest'), entries, 5);
    const result = verifyDraw(proof);
    expect(result).toEqual({ valid: true, problems: [], failures: [], recomputedWinners: proof.winners.map((w) => w.entryId), predictableBy: 'seed_holder' });
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

  it('keeps verifying a proof drawn before the formats were checked: its canonical lines, and so its digest, are unchanged', () => {
    // Lines as the server has always frozen them; the digest is their sha256, computed apart from the SDK.
    const legacy: DrawEntry[] = [
      { id: 'ent_01JM4Q8Z3V7T2K9R5X6W1B8N4D', userId: 'usr_01JM4Q7A2B3C4D5E6F7G8H9J0K', weight: '1' },
      { id: 'ent_01JM4Q9B1C2D3E4F5G6H7J8K9M', userId: 'usr_01JM4Q7B2C3D4E5F6G7H8J9K0M', weight: '2.5' },
      { id: 'ent_01JM4QA0Z9Y8X7W6V5T4S3R2Q1', userId: 'usr_01JM4Q7C2D3E4F5G6H7J8K9M0N', weight: '0.000001' },
    ];
    const proof = proofFor(seedHex('legacy'), legacy, 2);
    expect(proof.entriesDigest).toBe('db63d4f5272b48026a06fba3d60b9b6c7ffc8b0fa2b3312cde07c07488dc39a0');
    expect(verifyDraw(proof)).toMatchObject({ valid: true, failures: [] });
  });

  it('accepts weights at the edges of their format', () => {
    const edges = drawEntries(4, (i) => ['99999999999999.999999', '0.000001', '10', '0.5'][i]!);
    expect(verifyDraw(proofFor(seedHex('edges'), edges, 2)).failures).toEqual([]);
  });

  it('refuses a proof without spots as not a proof', () => {
    const { spots: _spots, ...noSpots } = proofFor(seedHex('no-spots'), entries, 3);
    expect(verifyDraw(noSpots as DrawProof)).toMatchObject({ valid: false, problems: ['spots is missing or not a positive integer'], failures: [{ reason: 'malformed_proof' }] });
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

describe('verifyDraw against forged proofs that verified before', () => {
  it('refuses the first winner folded into its neighbour\'s userId: the digest is the same, the winner gone', () => {
    const { honest, forged, dropped } = foldedFirstWinner(entries, 3);
    expect(forged.entriesDigest).toBe(honest.entriesDigest);
    expect(forged.entries.map((e) => e.id)).not.toContain(dropped);
    expect(forged.winners.map((w) => w.entryId)).not.toContain(dropped);
    const result = verifyDraw(forged);
    expect(result.valid).toBe(false);
    expect(result.failures.map((f) => f.reason)).toEqual(['user_id_malformed']);
    expect(result.problems[0]).toMatch(/^userId ".*" of entry "ent_\w+" is not a user id/);
  });

  it('refuses an id that could hold a line of its own', () => {
    const proof = proofFor(seedHex('ids'), entries, 3);
    const odd = reforgedProof(proof, proof.entries.map((e, i) => (i === 5 ? { ...e, id: 'ent_x:usr_y' } : e)));
    expect(reasonsOf(odd)).toEqual(['entry_id_malformed']);
  });

  it('refuses fewer winners than spots, or none, and more than spots', () => {
    const proof = proofFor(seedHex('count'), entries, 3);
    expect(reasonsOf({ ...proof, winners: proof.winners.slice(0, 2) })).toEqual(['winner_count_mismatch']);
    expect(verifyDraw({ ...proof, winners: [] })).toMatchObject({
      valid: false,
      problems: ['the proof lists 0 winners; 3 spots among 40 entries make 3'],
      failures: [{ reason: 'winner_count_mismatch' }],
    });
    const fourth = rankEntries(Buffer.from(proof.seed, 'hex'), entries)[3]!;
    expect(reasonsOf({ ...proof, winners: [...proof.winners, { entryId: fourth.id, position: 4 }] })).toEqual(['winner_count_mismatch']);
  });

  it('expects every entry to win when there are fewer entries than spots', () => {
    const few = entries.slice(0, 4);
    const proof = proofFor(seedHex('few'), few, 10);
    expect(proof.winners).toHaveLength(4);
    expect(verifyDraw(proof).valid).toBe(true);
    expect(reasonsOf({ ...proof, winners: proof.winners.slice(0, 3) })).toEqual(['winner_count_mismatch']);
  });

  it.each(['Infinity', '1e308', '0x10', ' 2 ', '02', '2.50', '1.', '.5', '+1', '100000000000000', '1.0000001', '0', '-1', 'NaN', ''])(
    'refuses the weight %j even with the digest and winners recomputed for it',
    (weight) => {
      const proof = proofFor(seedHex('weights'), entries, 3);
      const loser = rankEntries(Buffer.from(proof.seed, 'hex'), entries)[20]!;
      const forged = reforgedProof(proof, entries.map((e) => (e.id === loser.id ? { ...e, weight } : e)));
      if (weight === 'Infinity') expect(forged.winners[0]!.entryId).toBe(loser.id);
      const result = verifyDraw(forged);
      expect(result.valid).toBe(false);
      expect(result.failures.map((f) => f.reason)).toEqual(['weight_malformed']);
      expect(result.recomputedWinners).toEqual([]);
    },
  );
});
