import { createHash } from 'node:crypto';
import {
  beaconMixedSeed,
  beaconRoundForClose,
  DRAND_DRAW_ALGORITHM,
  DRAW_ALGORITHM,
  drawCommitment,
  entriesDigest,
  entryLine,
  generateSecretKey,
  publicKeyOf,
  randomnessOf,
  rankEntries,
  signRound,
  UNCHAINED_G1_RFC9380,
  type BeaconChain,
  type DrawEntry,
  type DrawProof,
} from '../../src/index.js';

export const seedHex = (label: string) => createHash('sha256').update(label).digest('hex');

/** An id of `prefix` in the server's format, numbered: the digits are Crockford base32 too. */
export const drawId = (prefix: 'ent' | 'usr', n: number) => `${prefix}_${String(n).padStart(26, '0')}`;

export const drawEntries = (count: number, weight: (i: number) => string): DrawEntry[] =>
  Array.from({ length: count }, (_, i) => ({ id: drawId('ent', i), userId: drawId('usr', i), weight: weight(i) }));

/** The proof the server publishes for these entries: the top `spots` of the ranking win. */
export function honestProof(seed: string, eligible: DrawEntry[], spots: number): DrawProof {
  const seedBytes = Buffer.from(seed, 'hex');
  return {
    algorithm: DRAW_ALGORITHM,
    drawCommitment: drawCommitment(seedBytes),
    seed,
    entriesDigest: entriesDigest(eligible),
    spots,
    entries: eligible,
    winners: rankEntries(seedBytes, eligible)
      .slice(0, spots)
      .map((e, i) => ({ entryId: e.id, position: i + 1 })),
  };
}

/** A forger's proof: these entries, their digest recomputed by hand, and the winners they rank first. */
export function reforgedProof(proof: DrawProof, entries: DrawEntry[]): DrawProof {
  const lines = [...entries].sort((a, b) => (a.id < b.id ? -1 : 1)).map(entryLine).join('');
  const winners = rankEntries(Buffer.from(proof.seed, 'hex'), entries)
    .slice(0, Math.min(proof.spots, entries.length))
    .map((e, i) => ({ entryId: e.id, position: i + 1 }));
  return { ...proof, entries, entriesDigest: createHash('sha256').update(lines).digest('hex'), winners };
}

/**
 * The ambiguity of `id:userId:weight\n` lines: the real first winner's line folded into its
 * predecessor's userId gives byte-identical lines, so the same digest, without that winner.
 * Searches seeds for a draw whose first winner is not the lowest id (it needs a predecessor).
 */
export function foldedFirstWinner(eligible: DrawEntry[], spots: number): { honest: DrawProof; forged: DrawProof; dropped: string } {
  for (let i = 0; ; i++) {
    const honest = honestProof(seedHex(`fold-${i}`), eligible, spots);
    const sorted = [...eligible].sort((a, b) => (a.id < b.id ? -1 : 1));
    const at = sorted.findIndex((e) => e.id === honest.winners[0]!.entryId);
    if (at === 0) continue;
    const before = sorted[at - 1]!;
    const winner = sorted[at]!;
    const folded: DrawEntry = { id: before.id, userId: `${before.userId}:${before.weight}\n${winner.id}:${winner.userId}`, weight: winner.weight };
    const entries = sorted.filter((e) => e !== winner).map((e) => (e === before ? folded : e));
    const forged = reforgedProof(honest, entries);
    return { honest, forged, dropped: winner.id };
  }
}

/** A chain of its own: a BLS key made here, trusted only by a verifier that is told about it. */
export function localChain(genesisTime = 1_750_000_000, period = 3): { chain: BeaconChain; secretKey: Uint8Array } {
  const secretKey = generateSecretKey();
  const publicKey = publicKeyOf(secretKey);
  const chainHash = createHash('sha256').update(`test-chain:${publicKey}`).digest('hex');
  return { chain: { chainHash, publicKey, period, genesisTime, scheme: UNCHAINED_G1_RFC9380 }, secretKey };
}

/** The beacon round a proof carries, from a chain's pinned values and a round's signature. */
export const beaconBlock = (chain: BeaconChain, round: number, signature: string): NonNullable<DrawProof['beacon']> => ({
  chainHash: chain.chainHash,
  publicKey: chain.publicKey,
  period: chain.period,
  genesisTime: chain.genesisTime,
  round,
  signature,
  randomness: randomnessOf(signature),
});

/** The proof the server publishes under es-hmac-sha256-drand-v1: ranked with the seed mixed with the round. */
export function honestDrandProof(seed: string, eligible: DrawEntry[], spots: number, closedAt: string, beacon: NonNullable<DrawProof['beacon']>): DrawProof {
  const seedBytes = Buffer.from(seed, 'hex');
  return {
    algorithm: DRAND_DRAW_ALGORITHM,
    closedAt,
    beacon,
    drawCommitment: drawCommitment(seedBytes),
    seed,
    entriesDigest: entriesDigest(eligible),
    spots,
    entries: eligible,
    winners: rankEntries(beaconMixedSeed(seedBytes, beacon), eligible)
      .slice(0, spots)
      .map((e, i) => ({ entryId: e.id, position: i + 1 })),
  };
}

/** A drand proof over a local chain: the round its close fixes, signed with the chain's key. */
export function localDrandProof(local: { chain: BeaconChain; secretKey: Uint8Array }, seed: string, eligible: DrawEntry[], spots: number, closedAt: string): DrawProof {
  const round = beaconRoundForClose(local.chain, new Date(closedAt));
  return honestDrandProof(seed, eligible, spots, closedAt, beaconBlock(local.chain, round, signRound(local.secretKey, round)));
}
