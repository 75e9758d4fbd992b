import { findDrawProofSource, listDrawWinnerPositions, listWinnerChanges, renderDrawProof, type Sql } from '@raffle/db';
import { DomainError } from '@raffle/domain';

/**
 * The draw proof of a raffle the caller may see (product.md, "Verifiable draws"), rendered as
 * JSON; the keyed and the public route answer it byte for byte alike. The seed is revealed only
 * once the draw's snapshot exists; winners are the draw's own selections at their original
 * positions, and what happened to them since (disqualified and rerolled winners, with times) is
 * listed after them, so it changes the body and its ETag.
 */
export async function readDrawProof(sql: Sql, raffleId: string): Promise<string> {
  const draw = await findDrawProofSource(sql, raffleId);
  if (!draw) throw new DomainError('RAFFLE_NOT_FOUND', 'no such raffle');
  if (draw.mechanic !== 'raffle') {
    throw new DomainError('DRAW_NOT_AVAILABLE', `this is a ${draw.mechanic} raffle: its winners are not chosen by a weighted draw, so there is no draw proof`);
  }
  const drawn = draw.status === 'drawn' || draw.status === 'finalized';
  const { entryLines, algorithm, seed, drawCommitment, entriesDigest } = draw;
  if (!drawn || entryLines === null || !algorithm || !seed || !drawCommitment || !entriesDigest) {
    throw new DomainError('DRAW_NOT_AVAILABLE', `the raffle has not been drawn yet (it is ${draw.status}); the proof is published with the draw`);
  }
  const winners = await listDrawWinnerPositions(sql, raffleId);
  const changes = await listWinnerChanges(sql, raffleId);
  return renderDrawProof(
    { algorithm, closedAt: draw.closedAt, beacon: draw.beacon, eligibilityBlocks: draw.eligibilityBlocks, drawCommitment, seed, entriesDigest, spots: draw.spots, entryLines },
    winners,
    changes,
  );
}
