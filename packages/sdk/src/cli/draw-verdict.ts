import { parseArgs } from 'node:util';
import { DEFAULT_DATA_PLANE_URL } from '../client/raffle-client.js';
import { fetchAndVerifyDraw } from '../draw/fetch-and-verify-draw.js';
import { fetchPlatformBeaconChain } from '../draw/platform-beacon.js';
import { proofShapeProblems } from '../draw/proof-shape.js';
import { locateProof, publicProofUrl } from '../draw/proof-url.js';
import { RaffleApiError, RaffleError } from '../http/raffle-api-error.js';
import { QUICKNET } from '../draw/beacon-chain.js';
import { commitmentRecordOf, type DrawCommitmentRecord } from '../draw/commitment-record.js';
import { describeDrawChecks, describeWinnerChanges, drawVerdictLabel, validDrawSummary } from '../draw/draw-checks.js';
import { checkEligibilityBlocksOnChain } from '../draw/eligibility-blocks.js';
import { verifyDraw, type DrawProof, type TrustedBeaconChain, type VerifyDrawOptions } from '../verify-draw.js';
import { trustBeaconUrl, trustChainArgument } from './trusted-chains.js';

export { proofShapeProblems };

/** Exit codes of `raffle-verify-draw`. */
export const EXIT = { valid: 0, invalid: 1, usage: 2, predictable: 3 } as const;

export const USAGE = `Usage:
  raffle-verify-draw <slug> [--base-url <url>]
  raffle-verify-draw <https://host/public/v1/raffles/<slug>/draw>
  raffle-verify-draw <https://host/api/v1/raffles/<slug>/draw> [--api-key <key>]
  any of them with [--trust-chain <chain>]… [--trust-beacon-url <url>]… [--trust-platform-beacon]
                   [--chain-rpc <chain>=<url>]… [--beacon-round <round>]

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
  --trust-platform-beacon       trust the chain the proof's platform pins (GET <origin>/public/v1/beacon):
                                this trusts that platform's operator, unless the chain is quicknet
Each may be repeated. A local beacon (the platform's own, without the internet) is trusted only this
way; its operator holds its key, so its rounds prove less than drand's.

A raffle whose requirements read a chain (token or native balances) names in eligibilityBlocks the
block of each chain its draw re-read them at: the first whose timestamp is at or after closedAt.
They are printed and checked against the close; with
  --chain-rpc <chain>=<url>     a JSON-RPC node of that chain (any node, not an archive one)
the block's chain id, hash and timestamp are checked against the node, and the block before it must
be before the close. Who held what at the block needs an archive node and the entrants' wallets,
which the proof does not carry.

The proof is held against the raffle's public record, {origin}/public/v1/raffles/<slug>/commitment:
its algorithm must be the one bound at publish (es-hmac-sha256-drand-v1, or the beacon draw whenever
the raffle closed with a round), its commitment the published one, its round the one named at the
close. closedAt is the operator's claim; the record comes from the same operator, so the round you
saw when the raffle closed (the raffle.closed webhook, or the raffle's page) is the stronger check:
  --beacon-round <round>        the round the raffle named when it closed
A draw of es-hmac-sha256-v1 (raffles closed before beacon rounds) ranks by the seed alone: whoever
held the seed could know the winners while entries were open. It is reported as VALID BUT
PREDICTABLE, with its own exit status.

Winners disqualified or rerolled after the draw are listed on the proof with their times; each
reroll must be an entry ranked below the draw's winners, and the report says how far down the
draw's order it went.

A slug is looked up on the keyless public route, {base-url}/public/v1/raffles/<slug>/draw; the
base URL comes from --base-url, else RAFFLE_BASE_URL, else ${DEFAULT_DATA_PLANE_URL}. A URL may
name a proof or a raffle (…/raffles/<slug>, /draw is added). Only a keyed /api/v1 URL needs an
API key (a personal key with raffles:read): --api-key, else RAFFLE_API_KEY.

Exit status: 0 the draw is valid, 1 it is not, 2 usage or network error, 3 valid but drawn from the
seed alone (predictable by whoever held the seed).`;

/** `predictable`: valid, but drawn from the seed alone (verifyDraw's `predictableBy`). */
export type DrawVerdict = { valid: boolean; predictable: boolean; report: string };

const row = (label: string, text: string, ok: boolean) => `  ${label.padEnd(17)} ${ok ? 'ok  ' : 'FAIL'}  ${text}`;

/** Judges a fetched proof and says why, one line per claim, as the CLI prints it. */
export function judgeDrawProof(value: unknown, source?: string, options: VerifyDrawOptions = {}): DrawVerdict {
  const header = source ? [`Draw proof of ${source}`] : [];
  const shape = proofShapeProblems(value);
  if (shape.length > 0) {
    return { valid: false, predictable: false, report: [...header, 'INVALID: this is not a draw proof.', ...shape.map((p) => `  - ${p}`)].join('\n') };
  }
  const proof = value as DrawProof;
  const trustedChains = options.trustedChains ?? [QUICKNET];
  const result = verifyDraw(proof, { trustedChains, ...(options.commitment ? { commitment: options.commitment } : {}) });
  const checks = describeDrawChecks(proof, result, trustedChains);
  // Malformed entries or a missing beacon round rank nothing, so there is no other winner to name.
  const ranked = result.recomputedWinners.length > 0;
  const claimed = [...proof.winners].sort((a, b) => a.position - b.position);
  const lines = [
    ...header,
    ...checks.map((c) => row(c.check, c.text, c.ok)),
    ...claimed.map((w, i) => {
      const recomputed = result.recomputedWinners[i];
      const note = !ranked || recomputed === w.entryId ? '' : `  (the draw gives ${recomputed ?? 'nobody'})`;
      return `    #${w.position} ${w.entryId}${note}`;
    }),
    ...describeWinnerChanges(proof, result).map((line) => `    ${line}`),
  ];
  if (result.valid) lines.push(`${drawVerdictLabel(result)}: ${validDrawSummary(result)}`);
  else {
    lines.push('INVALID:', ...result.failures.map((f) => `  - ${f.message} [${f.reason}]`));
    if (result.failures.some((f) => f.reason === 'untrusted_chain')) lines.push('To trust a beacon of your own, pass --trust-chain, --trust-beacon-url or --trust-platform-beacon (see --help).');
  }
  return { valid: result.valid, predictable: result.predictableBy === 'seed_holder', report: lines.join('\n') };
}

/**
 * `apiKey` is set only for a keyed /api/v1 URL: the public route is never sent a key. The trust
 * flags are kept as given (set only when given); runVerifyDraw reads the files and URLs.
 */
export type VerifyDrawArgs =
  | {
      url: string;
      apiKey?: string;
      trustChains?: string[];
      trustBeaconUrls?: string[];
      trustPlatformBeacon?: true;
      chainRpcUrls?: Record<string, string>;
      /** The round the raffle named at its close, as the caller saw it then (--beacon-round). */
      beaconRound?: number;
    }
  | { help: true }
  | { error: string };

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
        'trust-platform-beacon': { type: 'boolean' },
        'chain-rpc': { type: 'string', multiple: true },
        'beacon-round': { type: 'string' },
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
  const chainRpcUrls: Record<string, string> = {};
  for (const pair of values['chain-rpc'] ?? []) {
    const at = pair.indexOf('=');
    const url = pair.slice(at + 1);
    if (at < 1 || !/^https?:\/\//.test(url)) return { error: `--chain-rpc takes <chain>=<http(s) url>, not ${JSON.stringify(pair)}` };
    chainRpcUrls[pair.slice(0, at)] = url;
  }
  const round = values['beacon-round'];
  if (round !== undefined && !/^[1-9][0-9]{0,15}$/.test(round)) return { error: `--beacon-round takes a round number, not ${JSON.stringify(round)}` };
  const trust = {
    ...(round !== undefined ? { beaconRound: Number(round) } : {}),
    ...(Object.keys(chainRpcUrls).length > 0 ? { chainRpcUrls } : {}),
    ...(values['trust-chain']?.length ? { trustChains: values['trust-chain'] } : {}),
    ...(values['trust-beacon-url']?.length ? { trustBeaconUrls: values['trust-beacon-url'] } : {}),
    ...(values['trust-platform-beacon'] ? { trustPlatformBeacon: true as const } : {}),
  };
  if (!location.keyed) return { url: location.url, ...trust };
  const apiKey = values['api-key'] ?? env.RAFFLE_API_KEY;
  if (!apiKey) return { error: 'an /api/v1 URL needs an API key (--api-key <key> or RAFFLE_API_KEY); a slug or a /public/v1 URL needs none' };
  return { url: location.url, apiKey, ...trust };
}

/**
 * quicknet, and every chain the caller named: a file or inline value, a beacon URL's /info, or the
 * chain the platform serving the proof pins (its /public/v1/beacon).
 */
async function trustedChainsOf(
  args: { url: string; trustChains?: string[]; trustBeaconUrls?: string[]; trustPlatformBeacon?: true },
  fetchImpl: typeof fetch,
): Promise<TrustedBeaconChain[]> {
  const named = await Promise.all((args.trustChains ?? []).map(trustChainArgument));
  const fromUrls = await Promise.all(
    (args.trustBeaconUrls ?? []).map(async (url) => ({ ...(await trustBeaconUrl(url, fetchImpl)), name: `the beacon at ${url}` })),
  );
  const platform = args.trustPlatformBeacon ? [await fetchPlatformBeaconChain({ baseUrl: new URL(args.url).origin, fetch: fetchImpl, maxRetries: 1 })] : [];
  return [QUICKNET, ...named, ...fromUrls, ...platform.filter((chain) => chain !== QUICKNET)];
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
  let commitment: DrawCommitmentRecord = {};
  const kept = args.beaconRound === undefined ? {} : { beaconRound: args.beaconRound };
  try {
    const fetched = await fetchAndVerifyDraw(args.url, { apiKey: args.apiKey, fetch: io.fetch, timeoutMs: 120_000, trustedChains, commitment: kept });
    proof = fetched.proof;
    commitment = { ...commitmentRecordOf(fetched.commitment ?? {}), ...kept };
  } catch (error) {
    io.err(`raffle-verify-draw: ${describeFailure(args.url, error)}`);
    return EXIT.usage;
  }
  const verdict = judgeDrawProof(proof, args.url, { trustedChains, commitment });
  io.out(verdict.report);
  const onChain = args.chainRpcUrls ? await eligibilityOnChainReport(proof as DrawProof, args.chainRpcUrls, io.fetch) : { ok: true, lines: [] };
  if (onChain.lines.length > 0) io.out(onChain.lines.join('\n'));
  if (!verdict.valid || !onChain.ok) return EXIT.invalid;
  return verdict.predictable ? EXIT.predictable : EXIT.valid;
}

/** The eligibility blocks checked against the nodes given with --chain-rpc, one line per chain. */
async function eligibilityOnChainReport(proof: DrawProof, rpcUrls: Record<string, string>, fetchImpl: typeof fetch): Promise<{ ok: boolean; lines: string[] }> {
  if (!proof.eligibilityBlocks?.length) return { ok: true, lines: [] };
  try {
    const check = await checkEligibilityBlocksOnChain(proof, { rpcUrls, fetch: fetchImpl });
    return {
      ok: check.failures.length === 0,
      lines: [
        ...check.confirmed.map((chain) => row('eligibility node', `${chain}: the node has this block, and the one before it is before the close`, true)),
        ...check.unchecked.map((chain) => `  ${'eligibility node'.padEnd(17)} --    ${chain}: no --chain-rpc given, not checked`),
        ...check.failures.map((f) => row('eligibility node', `${f.message} [${f.reason}]`, false)),
      ],
    };
  } catch (error) {
    return { ok: false, lines: [row('eligibility node', `could not ask the node: ${(error as Error).message}`, false)] };
  }
}

function describeFailure(url: string, error: unknown): string {
  if (error instanceof RaffleApiError) {
    const body = typeof error.body === 'string' ? ' with a body that is not JSON' : '';
    return `${url} answered ${error.status}${error.code ? ` ${error.code}` : ''}${body}: ${error.message}`;
  }
  if (error instanceof RaffleError) return `could not fetch ${url}: ${error.message}`;
  return `could not fetch ${url}: ${(error as Error)?.message ?? String(error)}`;
}
