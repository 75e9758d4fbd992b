import { DRAW_ALGORITHM, drawCommitment, entriesDigest, rankEntries, type DrawEntry } from './weighted-draw.js';

/** What `GET /api/v1/raffles/{slug}/draw` returns once a raffle is drawn. */
export type DrawProof = {
  algorithm: string;
  /** sha256 of the seed, hex; published when the raffle was published. */
  drawCommitment: string;
  /** The 32-byte seed, hex; revealed after the draw. */
  seed: string;
  /** sha256 of the eligible entries' canonical lines, hex. */
  entriesDigest: string;
  /** Every eligible entry; `weight` is a decimal string. */
  entries: DrawEntry[];
  /** The drawn winners in position order (positions 1..n). */
  winners: { entryId: string; position: number }[];
};

export type DrawVerification = {
  valid: boolean;
  /** Why the proof does not hold; empty when `valid`. */
  problems: string[];
  /** The winners the proof's own inputs produce, in position order. */
  recomputedWinners: string[];
};

const HEX_SEED = /^[0-9a-f]{64}$/;

/** Recomputes a draw from its proof and says whether every claim in it holds. */
export function verifyDraw(proof: DrawProof): DrawVerification {
  const problems: string[] = [];
  if (proof.algorithm !== DRAW_ALGORITHM) problems.push(`unknown algorithm "${proof.algorithm}"; expected ${DRAW_ALGORITHM}`);
  if (!HEX_SEED.test(proof.seed)) {
    return { valid: false, problems: [...problems, 'seed is not 32 bytes of lowercase hex'], recomputedWinners: [] };
  }
  const seed = Buffer.from(proof.seed, 'hex');
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
