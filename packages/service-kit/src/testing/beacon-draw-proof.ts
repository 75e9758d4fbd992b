import { createHash } from 'node:crypto';
import { beaconMixedSeed, DRAND_DRAW_ALGORITHM, entryLine, isRoundSignatureValid, randomnessOf, rankEntries, roundAt, type DrawProof } from '@raffle/sdk';

const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * What is wrong with an `es-hmac-sha256-drand-v1` proof the platform served, recomputed from the
 * SDK's building blocks: the round's BLS signature by the proof's own chain (tests pin the chain
 * they expect separately), its randomness, the round rule against `closedAt`, the commitment, the
 * entries digest, and the winners as the ranking keyed with HMAC(seed, the round) orders them.
 * Empty when the proof reproduces. The SDK's verifyDraw, which also decides which chains to
 * trust, is tested in the SDK.
 */
export function beaconDrawProblems(proof: DrawProof): string[] {
  const { beacon } = proof;
  if (proof.algorithm !== DRAND_DRAW_ALGORITHM || !beacon) return [`not a beacon draw: algorithm ${proof.algorithm}, beacon ${beacon ? 'present' : 'absent'}`];
  const problems: string[] = [];
  if (!isRoundSignatureValid(beacon, beacon.round, beacon.signature)) problems.push('the signature is not the chain\'s signature of the round');
  if (randomnessOf(beacon.signature) !== beacon.randomness) problems.push('randomness is not sha256(signature)');
  if (!proof.closedAt || beacon.round !== roundAt(beacon, Math.floor(new Date(proof.closedAt).getTime() / 1000)) + 2) problems.push('the round is not roundAt(closedAt) + 2');
  const seed = Buffer.from(proof.seed, 'hex');
  if (sha256Hex(seed) !== proof.drawCommitment) problems.push('sha256(seed) is not the commitment');
  if (sha256Hex(proof.entries.map(entryLine).join('')) !== proof.entriesDigest) problems.push('the entries do not hash to the digest');
  const expected = rankEntries(beaconMixedSeed(seed, beacon), proof.entries).slice(0, Math.min(proof.spots, proof.entries.length)).map((e) => e.id);
  if (JSON.stringify(expected) !== JSON.stringify(proof.winners.map((w) => w.entryId))) problems.push('the winners are not the ranking\'s');
  return problems;
}
