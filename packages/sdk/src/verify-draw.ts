import type { DrawProof } from './client/api-types.js';
import { fromHex } from './crypto/encoding.js';
import { proofShapeProblems } from './draw/proof-shape.js';
import { DRAW_ALGORITHM, drawCommitment, entriesDigest, rankEntries } from './weighted-draw.js';

/** What `GET /public/v1/raffles/{slug}/draw` (and the keyed `/api/v1/…/draw`) returns once a raffle is drawn. */
export type { DrawProof };

export type DrawVerification = {
  valid: boolean;
  /** Why the proof does not hold; empty when `valid`. */
  problems: string[];
  /** The winners the proof's own inputs produce, in position order. */
  recomputedWinners: string[];
};

const HEX_SEED = /^[0-9a-f]{64}$/;

/**
 * Recomputes a draw from its proof and says whether every claim in it holds. A proof usually
 * arrives from the network, typed only by trust: a value that is not a proof at all comes back
 * INVALID with the reasons, never as an exception.
 */
export function verifyDraw(proof: DrawProof): DrawVerification {
  const shape = proofShapeProblems(proof);
  if (shape.length > 0) return { valid: false, problems: shape, recomputedWinners: [] };
  const problems: string[] = [];
  if (proof.algorithm !== DRAW_ALGORITHM) problems.push(`unknown algorithm "${proof.algorithm}"; expected ${DRAW_ALGORITHM}`);
  if (!HEX_SEED.test(proof.seed)) {
    return { valid: false, problems: [...problems, 'seed is not 32 bytes of lowercase hex'], recomputedWinners: [] };
  }
  const seed = fromHex(proof.seed);
  if (drawCommitment(seed) !== proof.drawCommitment) problems.push('sha256(seed) does not match drawCommitment');
  if (entriesDigest(proof.entries) !== proof.entriesDigest) problems.push('the entries do not match entriesDigest');
  if (new Set(proof.entries.map((e) => e.id)).size !== proof.entries.length) problems.push('an entry id appears twice');
  if (proof.entries.some((e) => !(Number(e.weight) > 0))) problems.push('every weight must be a positive decimal');

  const recomputedWinners = rankEntries(seed, proof.entries)
    .slice(0, proof.winners.length)
    .map((e) => e.id);
  const claimed = [...proof.winners].sort((a, b) => a.position - b.position);
  claimed.forEach((w, i) => {
    if (w.position !== i + 1) problems.push(`winner positions must run 1..${claimed.length}`);
    if (w.entryId !== recomputedWinners[i]) problems.push(`position ${i + 1}: the proof says ${w.entryId}, the draw gives ${recomputedWinners[i] ?? 'nobody'}`);
  });
  return { valid: problems.length === 0, problems: [...new Set(problems)], recomputedWinners };
}
