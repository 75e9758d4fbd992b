import { DRAW_ALGORITHM, rankEntries, type DrawProof } from '@raffle/sdk';

export { DRAND_DRAW_ALGORITHM, verifyDraw, type DrawProof } from '@raffle/sdk';

/**
 * The downgrade of issue 34: a beacon draw's proof relabelled es-hmac-sha256-v1, its beacon and
 * close removed, its winners re-ranked from the seed alone. Consistent in itself, so only the
 * raffle's record can tell it from a real seed-only draw.
 */
export function honestSeedOnlyProofOf(proof: DrawProof): DrawProof {
  const { beacon: _beacon, closedAt: _closedAt, ...rest } = proof;
  const winners = rankEntries(Buffer.from(proof.seed, 'hex'), proof.entries)
    .slice(0, proof.winners.length)
    .map((e, i) => ({ entryId: e.id, position: i + 1 }));
  return { ...rest, algorithm: DRAW_ALGORITHM, winners };
}
