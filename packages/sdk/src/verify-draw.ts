import type { DrawProof } from './client/api-types.js';
import { fromHex } from './crypto/encoding.js';
import { ENTRY_ID_FORMAT, USER_ID_FORMAT, WEIGHT_FORMAT } from './draw/entry-format.js';
import { proofShapeProblems } from './draw/proof-shape.js';
import { DRAW_ALGORITHM, drawCommitment, entriesDigest, rankEntries, type DrawEntry } from './weighted-draw.js';

/** What `GET /public/v1/raffles/{slug}/draw` (and the keyed `/api/v1/…/draw`) returns once a raffle is drawn. */
export type { DrawProof };

/**
 * Why a draw proof was refused, for code to branch on (the message is for people):
 * - `malformed_proof`: not a draw proof at all (a field missing or of the wrong type);
 * - `unknown_algorithm`: `algorithm` is not one this verifier knows;
 * - `malformed_seed`: the seed is not 32 bytes of lowercase hex;
 * - `commitment_mismatch`: sha256(seed) is not `drawCommitment`;
 * - `entry_id_malformed` / `user_id_malformed` / `weight_malformed`: an entry's field is outside
 *   its exact format (ENTRY_ID_FORMAT, USER_ID_FORMAT, WEIGHT_FORMAT), so its canonical line
 *   could be read more than one way;
 * - `duplicate_entry`: an entry id appears twice;
 * - `digest_mismatch`: the entries do not hash to `entriesDigest`;
 * - `winner_count_mismatch`: the proof lists other than min(spots, entries) winners;
 * - `winner_positions`: positions do not run 1, 2, 3…;
 * - `winner_mismatch`: a position holds another entry than ranking the entries by the seed gives.
 */
export const DRAW_VERIFICATION_FAILURES = [
  'malformed_proof',
  'unknown_algorithm',
  'malformed_seed',
  'commitment_mismatch',
  'entry_id_malformed',
  'user_id_malformed',
  'weight_malformed',
  'duplicate_entry',
  'digest_mismatch',
  'winner_count_mismatch',
  'winner_positions',
  'winner_mismatch',
] as const;
export type DrawVerificationFailure = (typeof DRAW_VERIFICATION_FAILURES)[number];

export type DrawProblem = { reason: DrawVerificationFailure; message: string };

export type DrawVerification = {
  valid: boolean;
  /** Why the proof does not hold, in words; empty when `valid`. */
  problems: string[];
  /** The same, each with its reason code. */
  failures: DrawProblem[];
  /** The winners the proof's own inputs produce, in position order; empty when its entries are malformed. */
  recomputedWinners: string[];
};

const HEX_SEED = /^[0-9a-f]{64}$/;

const failure = (reason: DrawVerificationFailure, message: string): DrawProblem => ({ reason, message });

function checkAlgorithm(proof: DrawProof): DrawProblem[] {
  return proof.algorithm === DRAW_ALGORITHM ? [] : [failure('unknown_algorithm', `unknown algorithm "${proof.algorithm}"; expected ${DRAW_ALGORITHM}`)];
}

function checkCommitment(proof: DrawProof, seed: Uint8Array): DrawProblem[] {
  return drawCommitment(seed) === proof.drawCommitment ? [] : [failure('commitment_mismatch', 'sha256(seed) does not match drawCommitment')];
}

const FIELD_CHECKS: Array<{ field: keyof DrawEntry; format: RegExp; reason: DrawVerificationFailure; expected: string }> = [
  { field: 'id', format: ENTRY_ID_FORMAT, reason: 'entry_id_malformed', expected: 'an entry id (ent_ and 26 Crockford base32 characters)' },
  { field: 'userId', format: USER_ID_FORMAT, reason: 'user_id_malformed', expected: 'a user id (usr_ and 26 Crockford base32 characters)' },
  { field: 'weight', format: WEIGHT_FORMAT, reason: 'weight_malformed', expected: 'a plain positive decimal (at most 14 digits, 6 decimals, no leading or trailing zeros)' },
];

/** Each field in its exact format: only then does the digest pin down one list of entries. */
function checkEntryFields(proof: DrawProof): DrawProblem[] {
  return FIELD_CHECKS.flatMap(({ field, format, reason, expected }) => {
    const bad = proof.entries.filter((e) => !format.test(e[field]));
    if (bad.length === 0) return [];
    const more = bad.length > 1 ? ` (and ${bad.length - 1} more)` : '';
    return [failure(reason, `${field} ${JSON.stringify(bad[0]![field])} of entry ${JSON.stringify(bad[0]!.id)} is not ${expected}${more}`)];
  });
}

function checkUniqueEntries(proof: DrawProof): DrawProblem[] {
  return new Set(proof.entries.map((e) => e.id)).size === proof.entries.length ? [] : [failure('duplicate_entry', 'an entry id appears twice')];
}

function checkDigest(proof: DrawProof): DrawProblem[] {
  return entriesDigest(proof.entries) === proof.entriesDigest ? [] : [failure('digest_mismatch', 'the entries do not match entriesDigest')];
}

/** The draw fills every spot it can: min(spots, eligible entries) winners, never fewer. */
function checkWinnerCount(proof: DrawProof): DrawProblem[] {
  const expected = Math.min(proof.spots, proof.entries.length);
  if (proof.winners.length === expected) return [];
  return [
    failure(
      'winner_count_mismatch',
      `the proof lists ${proof.winners.length} ${proof.winners.length === 1 ? 'winner' : 'winners'}; ${proof.spots} spots among ${proof.entries.length} entries make ${expected}`,
    ),
  ];
}

function checkWinners(proof: DrawProof, recomputedWinners: readonly string[]): DrawProblem[] {
  const claimed = [...proof.winners].sort((a, b) => a.position - b.position);
  return claimed.flatMap((w, i) => [
    ...(w.position === i + 1 ? [] : [failure('winner_positions', `winner positions must run 1..${claimed.length}`)]),
    ...(w.entryId === recomputedWinners[i]
      ? []
      : [failure('winner_mismatch', `position ${i + 1}: the proof says ${w.entryId}, the draw gives ${recomputedWinners[i] ?? 'nobody'}`)]),
  ]);
}

function verdict(failures: DrawProblem[], recomputedWinners: string[]): DrawVerification {
  const unique = failures.filter((f, i) => failures.findIndex((g) => g.message === f.message) === i);
  return { valid: unique.length === 0, problems: unique.map((f) => f.message), failures: unique, recomputedWinners };
}

/**
 * Recomputes a draw from its proof and says whether every claim in it holds. A proof usually
 * arrives from the network, typed only by trust: a value that is not a proof at all comes back
 * INVALID with the reasons, never as an exception. Each claim has its own check; the ranking
 * runs only on entries whose fields are well-formed.
 */
export function verifyDraw(proof: DrawProof): DrawVerification {
  const shape = proofShapeProblems(proof);
  if (shape.length > 0) return verdict(shape.map((p) => failure('malformed_proof', p)), []);
  const failures = checkAlgorithm(proof);
  if (!HEX_SEED.test(proof.seed)) return verdict([...failures, failure('malformed_seed', 'seed is not 32 bytes of lowercase hex')], []);
  const seed = fromHex(proof.seed);
  failures.push(...checkCommitment(proof, seed));
  const fields = checkEntryFields(proof);
  failures.push(...fields, ...checkUniqueEntries(proof), ...checkDigest(proof), ...checkWinnerCount(proof));
  if (fields.length > 0) return verdict(failures, []);

  const recomputedWinners = rankEntries(seed, proof.entries)
    .slice(0, proof.winners.length)
    .map((e) => e.id);
  failures.push(...checkWinners(proof, recomputedWinners));
  return verdict(failures, recomputedWinners);
}
