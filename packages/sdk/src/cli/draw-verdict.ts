import { parseArgs } from 'node:util';
import { DEFAULT_DATA_PLANE_URL } from '../client/raffle-client.js';
import { fetchAndVerifyDraw } from '../draw/fetch-and-verify-draw.js';
import { proofShapeProblems } from '../draw/proof-shape.js';
import { locateProof, publicProofUrl } from '../draw/proof-url.js';
import { RaffleApiError, RaffleError } from '../http/raffle-api-error.js';
import { QUICKNET, roundAt, timeOfRound } from '../draw/beacon-chain.js';
import { DRAND_DRAW_ALGORITHM } from '../draw/beacon-draw.js';
import { verifyDraw, type DrawProof, type DrawVerification, type DrawVerificationFailure, type TrustedBeaconChain, type VerifyDrawOptions } from '../verify-draw.js';
import { trustBeaconUrl, trustChainArgument } from './trusted-chains.js';

export { proofShapeProblems };

/** Exit codes of `raffle-verify-draw`. */
export const EXIT = { valid: 0, invalid: 1, usage: 2 } as const;

export const USAGE = `Usage:
  raffle-verify-draw <slug> [--base-url <url>]
  raffle-verify-draw <https://host/public/v1/raffles/<slug>/draw>
  raffle-verify-draw <https://host/api/v1/raffles/<slug>/draw> [--api-key <key>]
  any of them with [--trust-chain <chain>]… [--trust-beacon-url <url>]…

Fetches a drawn raffle's proof and recomputes the draw: sha256(seed) must equal the published
commitment, every entry's id, user id and weight must be in its exact format and the entries must
hash to the entries digest, the proof must list min(spots, entries) winners, and ranking the
entries by the seed must give them.

A draw of es-hmac-sha256-drand-v1 also mixes in a public beacon round that nobody knew while
entries were open: the round must be signed by a chain you trust (its BLS signature checked against
that chain's own public key, never the one the proof carries), its randomness must be sha256 of the
signature, and it must be round roundAt(closedAt) + 2, fixed by the moment entries closed. Only
drand's quicknet (the League of Entropy) is trusted unless you say otherwise:
  --trust-chain <chainHash:publicKey:period:genesisTime>   trust this chain (hex, hex, seconds, unix seconds)
  --trust-chain <file.json>     trust the chain in this file (drand's /info JSON, or chainHash, publicKey, period, genesisTime)
  --trust-beacon-url <url>      trust the chain <url>/info describes: this trusts whoever runs that URL
Each may be repeated. A local beacon (the platform's own, without the internet) is trusted only this
way; its operator holds its key, so its rounds prove less than drand's.

A slug is looked up on the keyless public route, {base-url}/public/v1/raffles/<slug>/draw; the
base URL comes from --base-url, else RAFFLE_BASE_URL, else ${DEFAULT_DATA_PLANE_URL}. A URL may
name a proof or a raffle (…/raffles/<slug>, /draw is added). Only a keyed /api/v1 URL needs an
API key (a personal key with raffles:read): --api-key, else RAFFLE_API_KEY.

Exit status: 0 the draw is valid, 1 it is not, 2 usage or network error.`;

export type DrawVerdict = { valid: boolean; report: string };

const short = (hex: string) => (hex.length > 16 ? `${hex.slice(0, 16)}…` : hex);
const row = (label: string, text: string, ok: boolean) => `  ${label.padEnd(17)} ${ok ? 'ok  ' : 'FAIL'}  ${text}`;
const utc = (unixSeconds: number) => `${new Date(unixSeconds * 1000).toISOString().replace('T', ' ').replace(/\.000Z$/, '')} UTC`;

/** The chain in words: quicknet by name; anything else plainly not the League of Entropy. */
export function describeChain(chainHash: string, trusted?: TrustedBeaconChain): string {
  if (chainHash === QUICKNET.chainHash && (!trusted || trusted.publicKey === QUICKNET.publicKey)) return "drand's quicknet (the League of Entropy's public beacon)";
  const who = trusted?.name ? `${trusted.name}, ` : '';
  return `a beacon you chose to trust (${who}chain ${short(chainHash)}), not the League of Entropy`;
}

/** One line per beacon claim of a drand proof, in words an entrant can follow. */
function beaconRows(proof: DrawProof, result: DrawVerification, trustedChains: readonly TrustedBeaconChain[]): string[] {
  const failed = (...reasons: DrawVerificationFailure[]) => result.failures.some((f) => reasons.includes(f.reason));
  if (failed('beacon_missing', 'malformed_beacon')) return [row('beacon round', 'the proof does not carry a well-formed beacon round', false)];
  const beacon = proof.beacon!;
  const trusted = trustedChains.find((c) => c.chainHash === beacon.chainHash);
  const chainOk = !failed('untrusted_chain', 'chain_mismatch');
  const chainText = failed('untrusted_chain')
    ? `chain ${short(beacon.chainHash)} is not one you trust (only drand's quicknet is, unless you pass --trust-chain or --trust-beacon-url)`
    : failed('chain_mismatch')
      ? `claims to be ${describeChain(beacon.chainHash)} but carries another public key, period or genesis`
      : describeChain(beacon.chainHash, trusted);
  const clock = trusted ?? beacon;
  const closed = typeof proof.closedAt === 'string' && !Number.isNaN(Date.parse(proof.closedAt)) ? Math.floor(Date.parse(proof.closedAt) / 1000) : undefined;
  const roundOk = !failed('beacon_round_mismatch', 'closed_at_missing') && trusted !== undefined;
  const due = `round ${beacon.round}, due ${utc(timeOfRound(clock, beacon.round))}`;
  const roundText =
    closed === undefined
      ? `${due}; the proof does not say when entries closed`
      : roundOk
        ? `${due}: entries closed ${utc(closed)}, during round ${roundAt(clock, closed)}, so nobody could know this round's value while they were open`
        : trusted
          ? `${due}, but entries closed ${utc(closed)}, which fixes round ${roundAt(clock, closed) + 2}`
          : `${due}; not checked against an untrusted chain's clock`;
  const signatureOk = trusted !== undefined && !failed('beacon_signature_invalid');
  const signatureText = !trusted
    ? 'not checked: the chain is not trusted'
    : signatureOk
      ? `the chain's own public key signed round ${beacon.round}`
      : `the trusted chain's public key did not sign round ${beacon.round} with this signature`;
  const randomnessOk = !failed('beacon_randomness_mismatch');
  return [
    row('beacon chain', chainText, chainOk),
    row('beacon round', roundText, roundOk),
    row('beacon signature', signatureText, signatureOk),
    row('beacon randomness', randomnessOk ? `${short(beacon.randomness)} is sha256 of the signature` : 'is not sha256 of the signature', randomnessOk),
  ];
}

function validLine(result: DrawVerification): string {
  if (!result.beacon) return 'VALID: the winners follow from the committed seed and the published entries.';
  const { round, trusted } = result.beacon;
  const caveat = trusted === 'quicknet' ? '' : " The beacon is not the League of Entropy: whoever runs it holds its key, so trust it only as far as you trust them.";
  return `VALID: the winners follow from the committed seed, the published entries and beacon round ${round}, published after entries closed.${caveat}`;
}

/** Judges a fetched proof and says why, one line per claim, as the CLI prints it. */
export function judgeDrawProof(value: unknown, source?: string, options: VerifyDrawOptions = {}): DrawVerdict {
  const header = source ? [`Draw proof of ${source}`] : [];
  const shape = proofShapeProblems(value);
  if (shape.length > 0) {
    return { valid: false, report: [...header, 'INVALID: this is not a draw proof.', ...shape.map((p) => `  - ${p}`)].join('\n') };
  }
  const proof = value as DrawProof;
  const trustedChains = options.trustedChains ?? [QUICKNET];
  const result = verifyDraw(proof, { trustedChains });
  const failed = (...reasons: DrawVerificationFailure[]) => result.failures.some((f) => reasons.includes(f.reason));
  const seedOk = !failed('malformed_seed');
  const commitmentOk = seedOk && !failed('commitment_mismatch');
  const fieldsOk = !failed('entry_id_malformed', 'user_id_malformed', 'weight_malformed', 'duplicate_entry');
  const digestOk = !failed('digest_mismatch');
  const countOk = !failed('winner_count_mismatch');
  const drand = proof.algorithm === DRAND_DRAW_ALGORITHM;
  const keyOk = !drand || !failed('beacon_missing', 'malformed_beacon');
  const winnersOk = seedOk && fieldsOk && keyOk && !failed('winner_positions', 'winner_mismatch');
  const from = drand ? 'the seed mixed with the beacon round' : 'the seed';
  const claimed = [...proof.winners].sort((a, b) => a.position - b.position);
  const expected = Math.min(proof.spots, proof.entries.length);

  const lines = [
    ...header,
    row('algorithm', drand ? `${proof.algorithm} (the seed mixed with a public beacon round)` : proof.algorithm, !failed('unknown_algorithm')),
    ...(drand ? beaconRows(proof, result, trustedChains) : []),
    row('commitment', seedOk ? `sha256(seed) ${commitmentOk ? '=' : '≠'} ${short(proof.drawCommitment)}` : 'the seed is not 32 bytes of hex', commitmentOk),
    row('entry fields', fieldsOk ? 'every id, user id and weight in its exact format, no id twice' : 'an id, user id or weight outside its format, or an id twice', fieldsOk),
    row('entries', `${proof.entries.length} entries ${digestOk ? 'hash to' : 'do not hash to'} ${short(proof.entriesDigest)}`, digestOk),
    row('winner count', `${claimed.length} of ${expected} (${proof.spots} spots, ${proof.entries.length} entries)`, countOk),
    row('winners', `${claimed.length} ${claimed.length === 1 ? 'winner' : 'winners'} ${winnersOk ? `reproduced from ${from}` : !fieldsOk ? 'not recomputed: malformed entries rank nothing' : !keyOk ? 'not recomputed: without the beacon round there is no key' : `not reproduced from ${from}`}`, winnersOk),
    ...claimed.map((w, i) => {
      const recomputed = result.recomputedWinners[i];
      const note = !fieldsOk || !keyOk || recomputed === w.entryId ? '' : `  (the draw gives ${recomputed ?? 'nobody'})`;
      return `    #${w.position} ${w.entryId}${note}`;
    }),
  ];
  if (result.valid) lines.push(validLine(result));
  else lines.push('INVALID:', ...result.failures.map((f) => `  - ${f.message} [${f.reason}]`));
  return { valid: result.valid, report: lines.join('\n') };
}

/**
 * `apiKey` is set only for a keyed /api/v1 URL: the public route is never sent a key. The trust
 * flags are kept as given (set only when given); runVerifyDraw reads the files and URLs.
 */
export type VerifyDrawArgs = { url: string; apiKey?: string; trustChains?: string[]; trustBeaconUrls?: string[] } | { help: true } | { error: string };

/** The proof URL (and, for a keyed URL, the key) from the command line and environment, or what is wrong with them. */
export function parseVerifyDrawArgs(argv: readonly string[], env: Record<string, string | undefined>): VerifyDrawArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        'api-key': { type: 'string' },
        'base-url': { type: 'string' },
        slug: { type: 'string' },
        'trust-chain': { type: 'string', multiple: true },
        'trust-beacon-url': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return { error: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  const baseUrl = values['base-url'] ?? env.RAFFLE_BASE_URL ?? DEFAULT_DATA_PLANE_URL;

  let location;
  if (values.slug !== undefined) {
    // The older form `<base-url> --slug <slug>`: the base URL may also come from --base-url.
    if (positionals.length > 1) return { error: 'give one base URL with --slug' };
    if (values.slug === '' || values.slug.includes('/')) return { error: '--slug must be a raffle slug' };
    const base = positionals[0] ?? baseUrl;
    const checked = locateProof(publicProofUrl(base, values.slug), baseUrl);
    if (positionals[0] !== undefined && /\/raffles\/[^/]+\/draw\/?$/.test(positionals[0])) return { error: 'give either a proof URL or a base URL with --slug, not both' };
    location = checked;
  } else {
    if (positionals.length !== 1) return { error: positionals.length === 0 ? 'give a raffle slug or a proof URL' : 'give exactly one slug or URL' };
    location = locateProof(positionals[0]!, baseUrl);
  }
  if ('error' in location) return location;
  const trust = {
    ...(values['trust-chain']?.length ? { trustChains: values['trust-chain'] } : {}),
    ...(values['trust-beacon-url']?.length ? { trustBeaconUrls: values['trust-beacon-url'] } : {}),
  };
  if (!location.keyed) return { url: location.url, ...trust };
  const apiKey = values['api-key'] ?? env.RAFFLE_API_KEY;
  if (!apiKey) return { error: 'an /api/v1 URL needs an API key (--api-key <key> or RAFFLE_API_KEY); a slug or a /public/v1 URL needs none' };
  return { url: location.url, apiKey, ...trust };
}

/** quicknet, and every chain the caller named: a file or inline value, or a beacon URL's /info. */
async function trustedChainsOf(args: { trustChains?: string[]; trustBeaconUrls?: string[] }, fetchImpl: typeof fetch): Promise<TrustedBeaconChain[]> {
  const named = await Promise.all((args.trustChains ?? []).map(trustChainArgument));
  const fromUrls = await Promise.all(
    (args.trustBeaconUrls ?? []).map(async (url) => ({ ...(await trustBeaconUrl(url, fetchImpl)), name: `the beacon at ${url}` })),
  );
  return [QUICKNET, ...named, ...fromUrls];
}

export type CliIo = {
  fetch: typeof fetch;
  out: (text: string) => void;
  err: (text: string) => void;
};

/** The whole command: parse, fetch (retrying as the SDK does), judge, print. Returns the exit code. */
export async function runVerifyDraw(argv: readonly string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const args = parseVerifyDrawArgs(argv, env);
  if ('help' in args) {
    io.out(USAGE);
    return EXIT.valid;
  }
  if ('error' in args) {
    io.err(`raffle-verify-draw: ${args.error}\n\n${USAGE}`);
    return EXIT.usage;
  }
  let trustedChains: TrustedBeaconChain[];
  try {
    trustedChains = await trustedChainsOf(args, io.fetch);
  } catch (error) {
    io.err(`raffle-verify-draw: ${(error as Error).message}`);
    return EXIT.usage;
  }
  let proof: unknown;
  try {
    ({ proof } = await fetchAndVerifyDraw(args.url, { apiKey: args.apiKey, fetch: io.fetch, timeoutMs: 120_000, trustedChains }));
  } catch (error) {
    io.err(`raffle-verify-draw: ${describeFailure(args.url, error)}`);
    return EXIT.usage;
  }
  const verdict = judgeDrawProof(proof, args.url, { trustedChains });
  io.out(verdict.report);
  return verdict.valid ? EXIT.valid : EXIT.invalid;
}

function describeFailure(url: string, error: unknown): string {
  if (error instanceof RaffleApiError) {
    const body = typeof error.body === 'string' ? ' with a body that is not JSON' : '';
    return `${url} answered ${error.status}${error.code ? ` ${error.code}` : ''}${body}: ${error.message}`;
  }
  if (error instanceof RaffleError) return `could not fetch ${url}: ${error.message}`;
  return `could not fetch ${url}: ${(error as Error)?.message ?? String(error)}`;
}
