import type { DrawProof } from './client/api-types.js';
import { fromHex } from './crypto/encoding.js';
import { BEACON_ROUND_OFFSET, chainValueProblems, QUICKNET, roundAt, timeOfRound, type BeaconChain } from './draw/beacon-chain.js';
import { beaconMixedSeed, DRAND_DRAW_ALGORITHM } from './draw/beacon-draw.js';
import { isRoundSignatureValid, randomnessOf } from './draw/beacon-signature.js';
import { commitmentRecordOf, committedAlgorithm, type DrawCommitmentRecord } from './draw/commitment-record.js';
import { blocksBeforeClose, ELIGIBILITY_NOTE, eligibilityBlocksShapeProblems, type DrawEligibility } from './draw/eligibility-blocks.js';
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
 * - `beacon_missing`: an `es-hmac-sha256-drand-v1` proof without its `beacon` block;
 * - `malformed_beacon`: the beacon block's fields are not hex of their sizes and whole numbers;
 * - `closed_at_missing`: a beacon draw without a valid `closedAt`, so its round cannot be checked;
 * - `untrusted_chain`: the beacon's chain hash is none of `trustedChains` (by default drand's quicknet);
 * - `chain_mismatch`: the chain hash is trusted but the proof's public key, period or genesis are not
 *   the values pinned for it (a proof carrying its own key is never believed);
 * - `beacon_signature_invalid`: the trusted chain's key did not sign this round with this signature;
 * - `beacon_randomness_mismatch`: `randomness` is not sha256(signature);
 * - `beacon_round_mismatch`: the round is not roundAt(closedAt) + 2 on the trusted chain;
 * - `malformed_eligibility_blocks`: `eligibilityBlocks` is present but not blocks in their exact
 *   formats, each chain once in ascending order (so the list has one spelling);
 * - `eligibility_block_before_close`: an eligibility block is timestamped before `closedAt`, so it
 *   cannot be the first block at or after the close (a proof with blocks and no `closedAt` is
 *   `closed_at_missing`);
 * - `algorithm_not_committed`: the raffle's record (options.commitment) binds its commitment to
 *   another algorithm than the proof's: a beacon draw relabelled as a seed-only one, say;
 * - `commitment_not_published`: the proof's `drawCommitment` is not the one the record published;
 * - `beacon_round_not_published`: the proof's beacon round (or chain) is not the one the record
 *   has named since the close, so its `closedAt` was moved with it (closedAt is the operator's claim);
 * - `commitment_mismatch`: sha256(seed) is not `drawCommitment`;
 * - `entry_id_malformed` / `user_id_malformed` / `weight_malformed`: an entry's field is outside
 *   its exact format (ENTRY_ID_FORMAT, USER_ID_FORMAT, WEIGHT_FORMAT), so its canonical line
 *   could be read more than one way;
 * - `duplicate_entry`: an entry id appears twice;
 * - `digest_mismatch`: the entries do not hash to `entriesDigest`;
 * - `winner_count_mismatch`: the proof lists other than min(spots, entries) winners;
 * - `winner_positions`: positions do not run 1, 2, 3…;
 * - `winner_mismatch`: a position holds another entry than ranking the entries by the seed gives
 *   (by the seed mixed with the beacon round, for `es-hmac-sha256-drand-v1`);
 * - `winner_change_mismatch`: `rerolledWinners` names an entry that is not one of the proof's
 *   entries ranked below the draw's winners (a reroll takes the next one of the draw's own order),
 *   or `disqualifiedWinners` names an entry that never held that position.
 */
export const DRAW_VERIFICATION_FAILURES = [
  'malformed_proof',
  'unknown_algorithm',
  'malformed_seed',
  'beacon_missing',
  'malformed_beacon',
  'closed_at_missing',
  'untrusted_chain',
  'chain_mismatch',
  'beacon_signature_invalid',
  'beacon_randomness_mismatch',
  'beacon_round_mismatch',
  'malformed_eligibility_blocks',
  'eligibility_block_before_close',
  'algorithm_not_committed',
  'commitment_not_published',
  'beacon_round_not_published',
  'commitment_mismatch',
  'entry_id_malformed',
  'user_id_malformed',
  'weight_malformed',
  'duplicate_entry',
  'digest_mismatch',
  'winner_count_mismatch',
  'winner_positions',
  'winner_mismatch',
  'winner_change_mismatch',
] as const;
export type DrawVerificationFailure = (typeof DRAW_VERIFICATION_FAILURES)[number];

export type DrawProblem = { reason: DrawVerificationFailure; message: string };

/** A chain a verifier believes, with an optional name to show for it (quicknet's is `quicknet`). */
export type TrustedBeaconChain = BeaconChain & { name?: string };

export type VerifyDrawOptions = {
  /**
   * The beacon chains whose rounds are believed, by their pinned values: default drand's quicknet
   * alone. Add a local beacon only when you know whose it is; the proof's own key is never used.
   */
  trustedChains?: readonly TrustedBeaconChain[];
  /**
   * What the raffle made public before its draw, to hold the proof against: its commitment record
   * (`fetchDrawCommitment`, `GET /public/v1/raffles/{slug}/commitment`), a `PublicRaffle`, or, best,
   * a copy kept from before the draw (the record fetched then, the `raffle.closed` webhook's
   * `beaconRound`). The proof's algorithm must be
   * the one bound at publish (or the beacon draw, when the record names a round), and its
   * commitment and round the record's. Without it a relabelled proof cannot be told from a
   * seed-only one: `predictableBy` still says what a seed-only proof is worth.
   */
  commitment?: DrawCommitmentRecord;
};

/** Which trusted chain signed a beacon draw's round, and when the round was due. */
export type DrawBeaconSigner = {
  chainHash: string;
  round: number;
  /** When the round was due (ISO 8601), on the trusted chain's clock. */
  roundTime: string;
  /** `quicknet` for drand's League of Entropy chain; `custom` for any other chain the caller trusted. */
  trusted: 'quicknet' | 'custom';
  name?: string;
};

export type RerolledWinner = { entryId: string; position: number; selectedAt: string; rank?: number };

export type DrawVerification = {
  valid: boolean;
  /** Why the proof does not hold, in words; empty when `valid`. */
  problems: string[];
  /** The same, each with its reason code. */
  failures: DrawProblem[];
  /** The winners the proof's own inputs produce, in position order; empty when its entries are malformed. */
  recomputedWinners: string[];
  /**
   * For an `es-hmac-sha256-drand-v1` proof whose chain is trusted (hash and pinned values): which
   * chain it names and the round's time. Present even when the signature or round fails (see
   * `failures`); absent for the older algorithm and for an untrusted or mismatched chain.
   */
  beacon?: DrawBeaconSigner;
  /**
   * For a proof whose raffle read a chain: the blocks its requirements were re-read at, with what
   * verifying them offline does and does not establish. Absent when the proof names none.
   */
  eligibility?: DrawEligibility;
  /**
   * `seed_holder` for an `es-hmac-sha256-v1` proof: its winners follow from the seed alone, so
   * whoever held the seed (the platform's operator) could rank every entry while entries were open
   * and add entries that win. Even a `valid` such proof shows only that the draw followed its seed,
   * never that nobody could steer it. Absent for a beacon draw.
   */
  predictableBy?: 'seed_holder';
  /**
   * For a proof whose positions were rerolled after the draw: each entry a reroll selected, with
   * its place in the draw's own order (`rank`, 1 = the draw's first pick; absent when the order
   * could not be recomputed or the entry is not in it), so a reader sees how far down the order
   * the team went.
   */
  rerolled?: RerolledWinner[];
  /** The record the proof was held against (options.commitment), as far as it named anything; absent when none was given. */
  checkedAgainst?: DrawCommitmentRecord;
};

const HEX_SEED = /^[0-9a-f]{64}$/;

const failure = (reason: DrawVerificationFailure, message: string): DrawProblem => ({ reason, message });

const KNOWN_ALGORITHMS: readonly string[] = [DRAW_ALGORITHM, DRAND_DRAW_ALGORITHM];

function checkAlgorithm(proof: DrawProof): DrawProblem[] {
  if (KNOWN_ALGORITHMS.includes(proof.algorithm)) return [];
  return [failure('unknown_algorithm', `unknown algorithm "${proof.algorithm}"; expected ${KNOWN_ALGORITHMS.join(' or ')}`)];
}

type ProofBeacon = NonNullable<DrawProof['beacon']>;

/** The round's own values; the chain's (hash, key, period, genesis) follow chainValueProblems. */
const ROUND_HEX_FIELDS = [
  ['signature', 96],
  ['randomness', 64],
] as const;

/** The beacon block is there and each field has its type and size: only then is any of it read. */
function checkBeaconShape(beacon: unknown): DrawProblem[] {
  if (beacon === undefined || beacon === null) return [failure('beacon_missing', `an ${DRAND_DRAW_ALGORITHM} proof needs its beacon round (the beacon block is missing)`)];
  if (typeof beacon !== 'object' || Array.isArray(beacon)) return [failure('malformed_beacon', 'the beacon block is not an object')];
  const b = beacon as Record<string, unknown>;
  const bad = [
    ...chainValueProblems(b).map(({ field, need }) => `${field} is not ${need}`),
    ...ROUND_HEX_FIELDS.filter(([field, length]) => typeof b[field] !== 'string' || !new RegExp(`^[0-9a-f]{${length}}$`).test(b[field] as string)).map(
      ([field, length]) => `${field} is not ${length / 2} bytes of lowercase hex`,
    ),
    ...(Number.isSafeInteger(b.round) && (b.round as number) >= 1 ? [] : ['round is not a positive whole number']),
  ];
  return bad.map((problem) => failure('malformed_beacon', `beacon: ${problem}`));
}

/** The chain is one the caller trusts, and the proof repeats its pinned values rather than its own. */
function checkChainTrusted(beacon: ProofBeacon, trusted: TrustedBeaconChain | undefined): DrawProblem[] {
  if (!trusted) return [failure('untrusted_chain', `the beacon chain ${beacon.chainHash} is not one this verifier trusts (drand's quicknet, or a chain passed in trustedChains)`)];
  const differ = (['publicKey', 'period', 'genesisTime'] as const).filter((field) => beacon[field] !== trusted[field]);
  if (differ.length === 0) return [];
  return [failure('chain_mismatch', `the proof's ${differ.join(', ')} for chain ${beacon.chainHash} ${differ.length === 1 ? 'is' : 'are'} not the trusted chain's`)];
}

/** Checked against the trusted chain's key, never the proof's. */
function checkBeaconSignature(beacon: ProofBeacon, trusted: TrustedBeaconChain): DrawProblem[] {
  return isRoundSignatureValid(trusted, beacon.round, beacon.signature)
    ? []
    : [failure('beacon_signature_invalid', `the signature is not the trusted chain's signature of round ${beacon.round}`)];
}

function checkBeaconRandomness(beacon: ProofBeacon): DrawProblem[] {
  return randomnessOf(beacon.signature) === beacon.randomness ? [] : [failure('beacon_randomness_mismatch', 'the beacon randomness is not sha256 of its signature')];
}

const closedAtSeconds = (closedAt: unknown): number | undefined => {
  if (typeof closedAt !== 'string') return undefined;
  const ms = Date.parse(closedAt);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
};

/** The round is fixed by the close: roundAt(closedAt) + 2 on the trusted chain's clock. */
function checkBeaconRound(proof: DrawProof, beacon: ProofBeacon, trusted: TrustedBeaconChain): DrawProblem[] {
  const closed = closedAtSeconds(proof.closedAt);
  if (closed === undefined) return [failure('closed_at_missing', `an ${DRAND_DRAW_ALGORITHM} proof needs closedAt (a date-time) to check its round`)];
  const expected = roundAt(trusted, closed) + BEACON_ROUND_OFFSET;
  if (beacon.round === expected) return [];
  return [failure('beacon_round_mismatch', `the proof uses round ${beacon.round}; a close at ${proof.closedAt} fixes round ${expected}`)];
}

const isQuicknet = (chain: BeaconChain) =>
  chain.chainHash === QUICKNET.chainHash && chain.publicKey === QUICKNET.publicKey && chain.period === QUICKNET.period && chain.genesisTime === QUICKNET.genesisTime;

function signerOf(beacon: ProofBeacon, trusted: TrustedBeaconChain): DrawBeaconSigner {
  const quicknet = isQuicknet(trusted);
  const name = trusted.name ?? (quicknet ? 'quicknet' : undefined);
  return {
    chainHash: trusted.chainHash,
    round: beacon.round,
    roundTime: new Date(timeOfRound(trusted, beacon.round) * 1000).toISOString(),
    trusted: quicknet ? 'quicknet' : 'custom',
    ...(name === undefined ? {} : { name }),
  };
}

type BeaconCheck = { failures: DrawProblem[]; signer?: DrawBeaconSigner; beacon?: ProofBeacon };

/** Every beacon claim of a drand proof, each its own check; `beacon` is set when it can key the ranking. */
function checkBeacon(proof: DrawProof, trustedChains: readonly TrustedBeaconChain[]): BeaconCheck {
  const shape = checkBeaconShape(proof.beacon);
  if (shape.length > 0) return { failures: shape };
  const beacon = proof.beacon!;
  const trusted = trustedChains.find((c) => c.chainHash === beacon.chainHash);
  const chain = checkChainTrusted(beacon, trusted);
  const failures = [...chain, ...checkBeaconRandomness(beacon)];
  if (!trusted) return { failures, beacon };
  failures.push(...checkBeaconSignature(beacon, trusted), ...checkBeaconRound(proof, beacon, trusted));
  return { failures, beacon, ...(chain.length === 0 ? { signer: signerOf(beacon, trusted) } : {}) };
}

/** The blocks are well-formed, and none is before the close: each can be the first block at or after it. */
function checkEligibilityBlocks(proof: DrawProof): DrawProblem[] {
  if (proof.eligibilityBlocks === undefined) return [];
  const shape = eligibilityBlocksShapeProblems(proof.eligibilityBlocks);
  if (shape.length > 0) return shape.map((p) => failure('malformed_eligibility_blocks', p));
  const closed = typeof proof.closedAt === 'string' ? Date.parse(proof.closedAt) : Number.NaN;
  if (Number.isNaN(closed)) return [failure('closed_at_missing', 'a proof with eligibility blocks needs closedAt (a date-time): the blocks are fixed by it')];
  return blocksBeforeClose(proof.eligibilityBlocks, closed).map((b) =>
    failure('eligibility_block_before_close', `eligibility block ${b.number} of ${b.chain} is timestamped ${b.timestamp}, before the close at ${proof.closedAt}`),
  );
}

/**
 * The proof against what the raffle published before its draw: the algorithm bound at publish (a
 * beacon draw, once the record names a round), the commitment, and the round fixed at the close.
 */
function checkAgainstRecord(proof: DrawProof, record: DrawCommitmentRecord): DrawProblem[] {
  const problems: DrawProblem[] = [];
  const algorithm = committedAlgorithm(record);
  if (algorithm !== undefined && proof.algorithm !== algorithm) {
    problems.push(failure('algorithm_not_committed', `the raffle's record binds its commitment to ${algorithm}, but the proof says ${proof.algorithm}`));
  }
  if (typeof record.drawCommitment === 'string' && proof.drawCommitment !== record.drawCommitment) {
    problems.push(failure('commitment_not_published', `the proof's drawCommitment is not the one the raffle published (${record.drawCommitment})`));
  }
  const beacon = proof.beacon as { round?: unknown; chainHash?: unknown } | undefined;
  if (typeof record.beaconRound === 'number' && beacon && typeof beacon === 'object') {
    const otherChain = typeof record.beaconChainHash === 'string' && beacon.chainHash !== record.beaconChainHash;
    if (beacon.round !== record.beaconRound || otherChain) {
      problems.push(
        failure(
          'beacon_round_not_published',
          `the proof uses round ${String(beacon.round)}${otherChain ? ` of chain ${String(beacon.chainHash)}` : ''}; the raffle's record has named round ${record.beaconRound} since it closed`,
        ),
      );
    }
  }
  return problems;
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

type VerdictFacts = { signer?: DrawBeaconSigner; eligibility?: DrawEligibility; predictableBy?: 'seed_holder'; checkedAgainst?: DrawCommitmentRecord; rerolled?: RerolledWinner[] };

/**
 * The winners' changes after the draw against the draw's own order: a reroll takes an entry ranked
 * below every draw winner, and a disqualified win held its position (as the draw's pick or a reroll's).
 */
function checkWinnerChanges(proof: DrawProof, order: readonly string[]): { failures: DrawProblem[]; rerolled?: RerolledWinner[] } {
  const rerolledWinners = proof.rerolledWinners ?? [];
  const disqualifiedWinners = proof.disqualifiedWinners ?? [];
  if (rerolledWinners.length === 0 && disqualifiedWinners.length === 0) return { failures: [] };
  const rankOf = new Map(order.map((id, i) => [id, i + 1]));
  const drawn = proof.winners.length;
  const failures: DrawProblem[] = [];
  const rerolled = rerolledWinners.map(({ entryId, position, selectedAt }) => {
    const rank = rankOf.get(entryId);
    if (order.length > 0 && (rank === undefined || rank <= drawn)) {
      failures.push(
        failure('winner_change_mismatch', `rerolled winner ${entryId} is ${rank === undefined ? 'not an entry of the draw' : `the draw's own pick #${rank}`}, not an entry ranked below its winners`),
      );
    }
    return { entryId, position, selectedAt, ...(rank === undefined ? {} : { rank }) };
  });
  const held = (entryId: string, position: number) =>
    proof.winners.some((w) => w.entryId === entryId && w.position === position) || rerolledWinners.some((w) => w.entryId === entryId && w.position === position);
  for (const w of disqualifiedWinners) {
    if (!held(w.entryId, w.position)) failures.push(failure('winner_change_mismatch', `disqualified winner ${w.entryId} never held position ${w.position}`));
  }
  return { failures, ...(rerolledWinners.length > 0 ? { rerolled } : {}) };
}

function verdict(failures: DrawProblem[], recomputedWinners: string[], facts: VerdictFacts = {}): DrawVerification {
  const unique = failures.filter((f, i) => failures.findIndex((g) => g.message === f.message) === i);
  return {
    valid: unique.length === 0,
    problems: unique.map((f) => f.message),
    failures: unique,
    recomputedWinners,
    ...(facts.signer ? { beacon: facts.signer } : {}),
    ...(facts.eligibility ? { eligibility: facts.eligibility } : {}),
    ...(facts.predictableBy ? { predictableBy: facts.predictableBy } : {}),
    ...(facts.checkedAgainst ? { checkedAgainst: facts.checkedAgainst } : {}),
    ...(facts.rerolled ? { rerolled: facts.rerolled } : {}),
  };
}

/** The blocks as the result reports them, when the proof carries well-formed ones. */
function eligibilityOf(proof: DrawProof): DrawEligibility | undefined {
  const blocks = proof.eligibilityBlocks;
  if (blocks === undefined || eligibilityBlocksShapeProblems(blocks).length > 0) return undefined;
  return { blocks: blocks.map((b) => ({ ...b })), onChain: 'not_checked', note: ELIGIBILITY_NOTE };
}

/**
 * Recomputes a draw from its proof and says whether every claim in it holds. A proof usually
 * arrives from the network, typed only by trust: a value that is not a proof at all comes back
 * INVALID with the reasons, never as an exception. Each claim has its own check; the ranking
 * runs only on entries whose fields are well-formed. An `es-hmac-sha256-drand-v1` proof also has
 * its beacon round checked against `trustedChains` (default: drand's quicknet alone), and is
 * ranked with the seed mixed with that round. With `commitment` (the raffle's record), the proof's
 * algorithm, commitment and round must be the ones the raffle published; a seed-only proof is
 * marked `predictableBy: 'seed_holder'` whatever its verdict.
 */
export function verifyDraw(proof: DrawProof, options: VerifyDrawOptions = {}): DrawVerification {
  const shape = proofShapeProblems(proof);
  if (shape.length > 0) return verdict(shape.map((p) => failure('malformed_proof', p)), []);
  const failures = checkAlgorithm(proof);
  const beaconCheck: BeaconCheck = proof.algorithm === DRAND_DRAW_ALGORITHM ? checkBeacon(proof, options.trustedChains ?? [QUICKNET]) : { failures: [] };
  // A record that names nothing (a private raffle's, none served) checks nothing, and is not reported as checked.
  const given = commitmentRecordOf(options.commitment ?? {});
  const record = Object.keys(given).length > 0 ? given : undefined;
  failures.push(...(record ? checkAgainstRecord(proof, record) : []), ...beaconCheck.failures, ...checkEligibilityBlocks(proof));
  const facts: VerdictFacts = {
    signer: beaconCheck.signer,
    eligibility: eligibilityOf(proof),
    predictableBy: proof.algorithm === DRAW_ALGORITHM ? 'seed_holder' : undefined,
    checkedAgainst: record,
  };
  if (!HEX_SEED.test(proof.seed)) return verdict([...failures, failure('malformed_seed', 'seed is not 32 bytes of lowercase hex')], [], facts);
  const seed = fromHex(proof.seed);
  failures.push(...checkCommitment(proof, seed));
  const fields = checkEntryFields(proof);
  failures.push(...fields, ...checkUniqueEntries(proof), ...checkDigest(proof), ...checkWinnerCount(proof));
  const key = proof.algorithm !== DRAND_DRAW_ALGORITHM ? seed : beaconCheck.beacon ? beaconMixedSeed(seed, beaconCheck.beacon) : undefined;
  if (fields.length > 0 || key === undefined) return verdict(failures, [], { ...facts, rerolled: checkWinnerChanges(proof, []).rerolled });

  const order = rankEntries(key, proof.entries).map((e) => e.id);
  const recomputedWinners = order.slice(0, proof.winners.length);
  const changes = checkWinnerChanges(proof, order);
  failures.push(...checkWinners(proof, recomputedWinners), ...changes.failures);
  return verdict(failures, recomputedWinners, { ...facts, rerolled: changes.rerolled });
}
