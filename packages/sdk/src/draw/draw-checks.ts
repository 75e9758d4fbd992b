import type { DrawProof } from '../client/api-types.js';
import type { DrawVerification, DrawVerificationFailure, TrustedBeaconChain } from '../verify-draw.js';
import { BEACON_ROUND_OFFSET, QUICKNET, roundAt, timeOfRound } from './beacon-chain.js';
import { DRAND_DRAW_ALGORITHM } from './beacon-draw.js';
import { committedAlgorithm } from './commitment-record.js';

/** One claim of a proof and its verdict in words, as the CLI and the console's verify page show it. */
export type DrawCheck = {
  check:
    | 'algorithm'
    | 'public record'
    | 'beacon chain'
    | 'beacon round'
    | 'beacon signature'
    | 'beacon randomness'
    | 'eligibility blocks'
    | 'commitment'
    | 'entry fields'
    | 'entries'
    | 'winner count'
    | 'winners'
    | 'winner changes';
  ok: boolean;
  text: string;
};

const short = (hex: string) => (hex.length > 16 ? `${hex.slice(0, 16)}…` : hex);

/** `2023-08-23 15:59:24 UTC`: a round's or a close's time, as an entrant reads it. */
export const utcTime = (unixSeconds: number) => `${new Date(unixSeconds * 1000).toISOString().replace('T', ' ').replace(/\.000Z$/, '')} UTC`;

/** The chain in words: quicknet by name; any other chain plainly not the League of Entropy. */
export function describeBeaconChain(chainHash: string, trusted?: TrustedBeaconChain): string {
  if (chainHash === QUICKNET.chainHash && (!trusted || trusted.publicKey === QUICKNET.publicKey)) return "drand's quicknet (the League of Entropy's public beacon)";
  return `${trusted?.name ?? 'a beacon you chose to trust'} (chain ${short(chainHash)}), not the League of Entropy`;
}

type Failed = (...reasons: DrawVerificationFailure[]) => boolean;

/** The proof against what the raffle published before its draw; nothing when it was given no record (the summary says so). */
function recordCheck(proof: DrawProof, result: DrawVerification, failed: Failed): DrawCheck[] {
  const record = result.checkedAgainst;
  if (!record) return [];
  const ok = !failed('algorithm_not_committed', 'commitment_not_published', 'beacon_round_not_published');
  const algorithm = committedAlgorithm(record);
  const named = [
    algorithm ? `algorithm ${algorithm}${record.drawAlgorithm ? ' (bound at publish)' : ' (it closed with a beacon round)'}` : 'no algorithm (published before algorithms were bound, closed before beacon rounds)',
    ...(record.drawCommitment ? [`commitment ${short(record.drawCommitment)}`] : []),
    ...(typeof record.beaconRound === 'number' ? [`round ${record.beaconRound}`] : []),
  ].join(', ');
  if (ok) return [{ check: 'public record', ok, text: `the raffle published ${named}; the proof matches` }];
  return [{ check: 'public record', ok, text: `the raffle published ${named}; the proof ${failed('algorithm_not_committed') ? `says ${proof.algorithm}` : 'differs'}` }];
}

function beaconChecks(proof: DrawProof, failed: Failed, trustedChains: readonly TrustedBeaconChain[], result: DrawVerification): DrawCheck[] {
  if (failed('beacon_missing', 'malformed_beacon')) return [{ check: 'beacon round', ok: false, text: 'the proof does not carry a well-formed beacon round' }];
  const beacon = proof.beacon!;
  const trusted = trustedChains.find((c) => c.chainHash === beacon.chainHash);
  const chainText = failed('untrusted_chain')
    ? `chain ${short(beacon.chainHash)} is not one this verifier trusts (only drand's quicknet is, unless it is told to trust another)`
    : failed('chain_mismatch')
      ? `claims to be ${describeBeaconChain(beacon.chainHash)} but carries another public key, period or genesis`
      : describeBeaconChain(beacon.chainHash, trusted);
  // An untrusted chain's clock is the proof's own: good enough to show the time, never to judge.
  const clock = trusted ?? beacon;
  const closedMs = typeof proof.closedAt === 'string' ? Date.parse(proof.closedAt) : Number.NaN;
  const closed = Number.isNaN(closedMs) ? undefined : Math.floor(closedMs / 1000);
  const roundOk = trusted !== undefined && !failed('beacon_round_mismatch', 'closed_at_missing', 'beacon_round_not_published');
  const recordRound = result.checkedAgainst?.beaconRound;
  // closedAt comes from the operator like the rest of the proof: say what, if anything, holds it.
  const byRecord =
    typeof recordRound === 'number'
      ? `the raffle's record has named round ${recordRound} since the close`
      : 'nothing outside the proof holds it here (compare the round with the one the raffle named when it closed)';
  // A gated raffle's close block is the first of its chain at or after closedAt: a node confirms it, and so bounds the close.
  const byChain = proof.eligibilityBlocks?.length ? "; the chain blocks the draw re-read requirements at bound it from the chain's side, once a node of that chain confirms them" : '';
  const heldBy = `${byRecord}${byChain}`;
  const due = `round ${beacon.round}, due ${utcTime(timeOfRound(clock, beacon.round))}`;
  const roundText =
    closed === undefined
      ? `${due}; the proof does not say when entries closed`
      : !trusted
        ? `${due}; not checked against an untrusted chain's clock`
        : roundOk
          ? `${due}: the operator says entries closed ${utcTime(closed)}, during round ${roundAt(clock, closed)}; if so, nobody could know this round's value while they were open. closedAt is the operator's claim: ${heldBy}`
          : failed('beacon_round_not_published') && typeof recordRound === 'number'
            ? `${due}, but the raffle's record has named round ${recordRound} since it closed: the proof's closedAt (${utcTime(closed)}) was moved with its round`
            : `${due}, but entries closed ${utcTime(closed)}, which fixes round ${roundAt(clock, closed) + BEACON_ROUND_OFFSET}`;
  const signatureOk = trusted !== undefined && !failed('beacon_signature_invalid');
  const signatureText = !trusted
    ? 'not checked: the chain is not trusted'
    : signatureOk
      ? `the chain's own public key signed round ${beacon.round}`
      : `the trusted chain's public key did not sign round ${beacon.round} with this signature`;
  const randomnessOk = !failed('beacon_randomness_mismatch');
  return [
    { check: 'beacon chain', ok: !failed('untrusted_chain', 'chain_mismatch'), text: chainText },
    { check: 'beacon round', ok: roundOk, text: roundText },
    { check: 'beacon signature', ok: signatureOk, text: signatureText },
    { check: 'beacon randomness', ok: randomnessOk, text: randomnessOk ? `${short(beacon.randomness)} is sha256 of the signature` : 'is not sha256 of the signature' },
  ];
}

/**
 * The blocks the draw re-read on-chain requirements at, each named: checked offline for their
 * format and the close only, and said so (any node confirms the hash; balances need an archive node).
 */
function eligibilityChecks(proof: DrawProof, failed: Failed): DrawCheck[] {
  if (proof.eligibilityBlocks === undefined) return [];
  if (failed('malformed_eligibility_blocks')) return [{ check: 'eligibility blocks', ok: false, text: 'not well-formed blocks, each chain once in order' }];
  const ok = !failed('eligibility_block_before_close', 'closed_at_missing');
  const named = proof.eligibilityBlocks.map((b) => `${b.chain} (chain ${b.chainId}) block ${b.number} ${short(b.hash)} at ${b.timestamp}`).join('; ');
  return [
    {
      check: 'eligibility blocks',
      ok,
      text: ok
        ? `requirements re-read at ${named}: at or after the close; the hash is not checked here (any node of the chain can), balances need an archive node`
        : `${named}: not all at or after the close`,
    },
  ];
}

/**
 * Every claim of a proof `verifyDraw` judged, in order, with its verdict in words a raffle entrant
 * can follow. `trustedChains` must be the ones the verification used (default quicknet alone).
 */
export function describeDrawChecks(proof: DrawProof, result: DrawVerification, trustedChains: readonly TrustedBeaconChain[] = [QUICKNET]): DrawCheck[] {
  const failed: Failed = (...reasons) => result.failures.some((f) => reasons.includes(f.reason));
  const record = recordCheck(proof, result, failed);
  const seedOk = !failed('malformed_seed');
  const commitmentOk = seedOk && !failed('commitment_mismatch');
  const fieldsOk = !failed('entry_id_malformed', 'user_id_malformed', 'weight_malformed', 'duplicate_entry');
  const digestOk = !failed('digest_mismatch');
  const drand = proof.algorithm === DRAND_DRAW_ALGORITHM;
  const keyOk = !drand || !failed('beacon_missing', 'malformed_beacon');
  const winnersOk = seedOk && fieldsOk && keyOk && !failed('winner_positions', 'winner_mismatch');
  const from = drand ? 'the seed mixed with the beacon round' : 'the seed';
  const winners = `${proof.winners.length} ${proof.winners.length === 1 ? 'winner' : 'winners'}`;
  const expected = Math.min(proof.spots, proof.entries.length);
  return [
    {
      check: 'algorithm',
      ok: !failed('unknown_algorithm'),
      text: drand
        ? `${proof.algorithm} (the seed mixed with a public beacon round)`
        : result.predictableBy === 'seed_holder'
          ? `${proof.algorithm} (the seed alone: whoever held the seed could rank every entry before the draw)`
          : proof.algorithm,
    },
    ...record,
    ...(drand ? beaconChecks(proof, failed, trustedChains, result) : []),
    ...eligibilityChecks(proof, failed),
    { check: 'commitment', ok: commitmentOk, text: seedOk ? `sha256(seed) ${commitmentOk ? '=' : '≠'} ${short(proof.drawCommitment)}` : 'the seed is not 32 bytes of hex' },
    {
      check: 'entry fields',
      ok: fieldsOk,
      text: fieldsOk ? 'every id, user id and weight in its exact format, no id twice' : 'an id, user id or weight outside its format, or an id twice',
    },
    { check: 'entries', ok: digestOk, text: `${proof.entries.length} entries ${digestOk ? 'hash to' : 'do not hash to'} ${short(proof.entriesDigest)}` },
    { check: 'winner count', ok: !failed('winner_count_mismatch'), text: `${proof.winners.length} of ${expected} (${proof.spots} spots, ${proof.entries.length} entries)` },
    {
      check: 'winners',
      ok: winnersOk,
      text: `${winners} ${
        winnersOk
          ? `reproduced from ${from}`
          : !fieldsOk
            ? 'not recomputed: malformed entries rank nothing'
            : !keyOk
              ? 'not recomputed: without the beacon round there is no key'
              : `not reproduced from ${from}`
      }`,
    },
    ...winnerChangeChecks(proof, result, failed),
  ];
}

/**
 * The verdict's first word: a proof that holds but was drawn from the seed alone is never a plain
 * VALID, since whoever held the seed could have known the winners in advance (issue 34).
 */
export function drawVerdictLabel(result: DrawVerification): 'VALID' | 'VALID BUT PREDICTABLE' | 'INVALID' {
  if (!result.valid) return 'INVALID';
  return result.predictableBy === 'seed_holder' ? 'VALID BUT PREDICTABLE' : 'VALID';
}

const isoUtc = (iso: string) => (Number.isNaN(Date.parse(iso)) ? iso : `${new Date(iso).toISOString().replace('T', ' ').replace(/Z$/, '')} UTC`);

/**
 * What happened to the winners after the draw, one line per disqualified win (with its reroll,
 * if any): when, and how far down the draw's order each replacement was. Empty when nothing did.
 */
export function describeWinnerChanges(proof: DrawProof, result: DrawVerification): string[] {
  const rerolled = result.rerolled ?? (proof.rerolledWinners ?? []).map((w) => ({ ...w, rank: undefined as number | undefined }));
  const used = new Set<number>();
  const lines = (proof.disqualifiedWinners ?? []).map((d) => {
    const at = `#${d.position} ${d.entryId} disqualified ${isoUtc(d.disqualifiedAt)}`;
    if (d.replacedAt === undefined) return `${at}; not rerolled`;
    // The win that took the position when this one was replaced.
    const i = rerolled.findIndex((r, j) => !used.has(j) && r.position === d.position && r.selectedAt === d.replacedAt);
    if (i < 0) return `${at}; rerolled ${isoUtc(d.replacedAt)}`;
    used.add(i);
    const r = rerolled[i]!;
    return `${at}; rerolled ${isoUtc(d.replacedAt)} to ${r.entryId}${r.rank === undefined ? '' : ` (#${r.rank} of the draw's order)`}`;
  });
  return [
    ...lines,
    ...rerolled.filter((_, j) => !used.has(j)).map((r) => `#${r.position} rerolled ${isoUtc(r.selectedAt)} to ${r.entryId}${r.rank === undefined ? '' : ` (#${r.rank} of the draw's order)`}`),
  ];
}

function winnerChangeChecks(proof: DrawProof, result: DrawVerification, failed: Failed): DrawCheck[] {
  const disqualified = proof.disqualifiedWinners?.length ?? 0;
  const rerolled = proof.rerolledWinners?.length ?? 0;
  if (disqualified === 0 && rerolled === 0) return [];
  const ok = !failed('winner_change_mismatch');
  const deepest = Math.max(0, ...(result.rerolled ?? []).map((r) => r.rank ?? 0));
  const text =
    `${disqualified} disqualified after the draw, ${rerolled} ${rerolled === 1 ? 'position' : 'positions'} rerolled` +
    (ok ? (deepest > 0 ? `, each to an entry below the draw's winners (down to #${deepest} of its order)` : '') : ': a reroll is not the draw order\'s, or a disqualified entry never held its position');
  return [{ check: 'winner changes', ok, text }];
}

/** The one-sentence verdict of a valid proof, with the caveat a beacon other than drand's, or no beacon at all, needs. */
export function validDrawSummary(result: DrawVerification): string {
  if (result.predictableBy === 'seed_holder') {
    return (
      'the winners follow from the committed seed and the published entries, and from nothing else: whoever held the seed (the platform\'s operator) ' +
      'could rank every entry while entries were open, and add entries that win. A draw from before beacon rounds' +
      (result.checkedAgainst ? '.' : '; without the raffle\'s record this may also be a beacon draw relabelled.')
    );
  }
  if (!result.beacon) return 'the winners follow from the committed seed and the published entries.';
  const caveat =
    result.beacon.trusted === 'quicknet' ? '' : ' The beacon is not the League of Entropy: whoever runs it holds its key, so trust it only as far as you trust them.';
  return `the winners follow from the committed seed, the published entries and beacon round ${result.beacon.round}, published after entries closed.${caveat}`;
}
