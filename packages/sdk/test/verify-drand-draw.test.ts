import { describe, expect, it } from 'vitest';
import { beaconMixedSeed, generateSecretKey, publicKeyOf, QUICKNET, rankEntries, signRound, verifyDraw, type DrawProof, type VerifyDrawOptions } from '../src/index.js';
import { QUICKNET_ROUNDS } from './support/quicknet-rounds.js';
import { beaconBlock, drawEntries, honestDrandProof, honestProof, localChain, localDrandProof, seedHex } from './support/draw-proofs.js';

const entries = drawEntries(30, (i) => (i % 3 === 0 ? '2' : '1'));
const local = localChain();
const trustLocal: VerifyDrawOptions = { trustedChains: [{ ...local.chain, name: 'test beacon' }] };
// 2025-06-15T15:06:40Z is unix 1750000000 + 15000 s: round 5001 of the local chain is current, 5003 is drawn.
const CLOSED_AT = '2025-06-15T19:50:41Z';
const localProof = () => localDrandProof(local, seedHex('drand'), entries, 4, CLOSED_AT);
/** Each reason once: a changed key misplaces several winners. */
const reasonsOf = (proof: DrawProof, options: VerifyDrawOptions = trustLocal) => [...new Set(verifyDraw(proof, options).failures.map((f) => f.reason))];

/** Quicknet round 1000 is due at 2023-08-23T15:59:24Z; a close at 15:59:19 (round 998 current) draws with it. */
const QUICKNET_CLOSE = '2023-08-23T15:59:19Z';
const quicknetProof = () => {
  const { round, signature } = QUICKNET_ROUNDS.round1000;
  return honestDrandProof(seedHex('quicknet'), entries, 3, QUICKNET_CLOSE, beaconBlock(QUICKNET, round, signature));
};

describe('verifyDraw of es-hmac-sha256-drand-v1 proofs', () => {
  it('accepts a proof over a real quicknet round with the defaults, and names quicknet as the signer', () => {
    const proof = quicknetProof();
    expect(verifyDraw(proof)).toEqual({
      valid: true,
      problems: [],
      failures: [],
      recomputedWinners: proof.winners.map((w) => w.entryId),
      beacon: { chainHash: QUICKNET.chainHash, round: 1000, roundTime: '2023-08-23T15:59:24.000Z', trusted: 'quicknet', name: 'quicknet' },
    });
  });

  it('accepts a proof over a local chain only when the caller trusts that chain, and calls it custom', () => {
    const proof = localProof();
    const result = verifyDraw(proof, trustLocal);
    expect(result).toMatchObject({ valid: true, failures: [] });
    expect(result.beacon).toEqual({ chainHash: local.chain.chainHash, round: proof.beacon!.round, roundTime: expect.any(String), trusted: 'custom', name: 'test beacon' });
    expect(Date.parse(result.beacon!.roundTime) / 1000).toBe(local.chain.genesisTime + (proof.beacon!.round - 1) * local.chain.period);
  });

  it('ranks with the seed mixed with the round, not the seed alone', () => {
    const proof = localProof();
    const bySeed = rankEntries(Buffer.from(proof.seed, 'hex'), entries).slice(0, 4).map((e) => e.id);
    const mixed = rankEntries(beaconMixedSeed(Buffer.from(proof.seed, 'hex'), proof.beacon!), entries).slice(0, 4).map((e) => e.id);
    expect(proof.winners.map((w) => w.entryId)).toEqual(mixed);
    expect(mixed).not.toEqual(bySeed);
    expect(reasonsOf({ ...proof, winners: bySeed.map((entryId, i) => ({ entryId, position: i + 1 })) })).toContain('winner_mismatch');
  });

  it('keeps verifying es-hmac-sha256-v1 proofs, with no beacon in the result and marked predictable by the seed holder', () => {
    const old = honestProof(seedHex('old'), entries, 3);
    expect(verifyDraw(old)).toEqual({ valid: true, problems: [], failures: [], recomputedWinners: old.winners.map((w) => w.entryId), predictableBy: 'seed_holder' });
    expect(verifyDraw({ ...old, algorithm: 'es-hmac-sha256-drand-v2' }).failures.map((f) => f.reason)).toEqual(['unknown_algorithm']);
  });
});

describe('verifyDraw refuses a tampered drand proof, each with its own reason', () => {
  it('a changed winner', () => {
    const proof = localProof();
    const loser = entries.find((e) => !proof.winners.some((w) => w.entryId === e.id))!;
    expect(reasonsOf({ ...proof, winners: [{ entryId: loser.id, position: 1 }, ...proof.winners.slice(1)] })).toEqual(['winner_mismatch']);
  });

  it('a changed entry', () => {
    const proof = localProof();
    expect(reasonsOf({ ...proof, entries: proof.entries.map((e, i) => (i === 2 ? { ...e, weight: '40' } : e)) })).toContain('digest_mismatch');
  });

  it('a changed seed', () => {
    expect(reasonsOf({ ...localProof(), seed: seedHex('another') })).toContain('commitment_mismatch');
  });

  it('a changed round (the signature is for the real one)', () => {
    const proof = localProof();
    const reasons = reasonsOf({ ...proof, beacon: { ...proof.beacon!, round: proof.beacon!.round + 1 } });
    expect(reasons).toContain('beacon_round_mismatch');
    expect(reasons).toContain('beacon_signature_invalid');
  });

  it('a changed signature, randomness recomputed to match it', () => {
    const proof = localProof();
    const other = beaconBlock(local.chain, proof.beacon!.round, signRound(generateSecretKey(), proof.beacon!.round));
    expect(reasonsOf({ ...proof, beacon: { ...proof.beacon!, signature: other.signature, randomness: other.randomness } })).toEqual(['beacon_signature_invalid', 'winner_mismatch']);
  });

  it('a signature from a chain the verifier was not told to trust', () => {
    expect(reasonsOf(localProof(), {})).toEqual(['untrusted_chain']);
    expect(reasonsOf(localProof(), { trustedChains: [QUICKNET] })).toEqual(['untrusted_chain']);
  });

  it("quicknet's chain hash with the signer's own key swapped in", () => {
    // A forger signs with a key of their own and claims quicknet: the proof's key is not believed.
    const forger = generateSecretKey();
    const { round } = QUICKNET_ROUNDS.round1000;
    const forged = honestDrandProof(seedHex('forged'), entries, 3, QUICKNET_CLOSE, {
      ...beaconBlock(QUICKNET, round, signRound(forger, round)),
      publicKey: publicKeyOf(forger),
    });
    expect(reasonsOf(forged, {})).toEqual(['chain_mismatch', 'beacon_signature_invalid']);
    expect(verifyDraw(forged).beacon).toBeUndefined();
  });

  it('a randomness that is not sha256 of the signature', () => {
    const proof = localProof();
    const reasons = reasonsOf({ ...proof, beacon: { ...proof.beacon!, randomness: seedHex('chosen') } });
    expect(reasons).toEqual(['beacon_randomness_mismatch', 'winner_mismatch']);
  });

  it('a closedAt moved so the round no longer follows from it', () => {
    const proof = localProof();
    expect(reasonsOf({ ...proof, closedAt: '2025-06-15T19:50:35Z' })).toEqual(['beacon_round_mismatch']);
    const { closedAt: _closedAt, ...noClose } = proof;
    expect(reasonsOf(noClose)).toEqual(['closed_at_missing']);
  });

  it('a real quicknet round under a close that fixes another round', () => {
    expect(reasonsOf({ ...quicknetProof(), closedAt: '2023-08-23T15:59:22Z' }, {})).toEqual(['beacon_round_mismatch']);
  });

  it('a missing or malformed beacon block', () => {
    const { beacon: _beacon, ...noBeacon } = localProof();
    expect(reasonsOf(noBeacon as DrawProof)).toEqual(['beacon_missing']);
    const proof = localProof();
    const malformed = verifyDraw({ ...proof, beacon: { ...proof.beacon!, round: 1.5, signature: 'zz' } }, trustLocal);
    expect(malformed.failures.map((f) => f.reason)).toEqual(['malformed_beacon', 'malformed_beacon']);
    expect(malformed.recomputedWinners).toEqual([]);
  });
});
