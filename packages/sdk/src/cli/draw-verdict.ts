import { parseArgs } from 'node:util';
import { DEFAULT_DATA_PLANE_URL } from '../client/raffle-client.js';
import { fetchAndVerifyDraw } from '../draw/fetch-and-verify-draw.js';
import { proofShapeProblems } from '../draw/proof-shape.js';
import { locateProof, publicProofUrl } from '../draw/proof-url.js';
import { RaffleApiError, RaffleError } from '../http/raffle-api-error.js';
import { verifyDraw, type DrawProof, type DrawVerificationFailure } from '../verify-draw.js';

export { proofShapeProblems };

/** Exit codes of `raffle-verify-draw`. */
export const EXIT = { valid: 0, invalid: 1, usage: 2 } as const;

export const USAGE = `Usage:
  raffle-verify-draw <slug> [--base-url <url>]
  raffle-verify-draw <https://host/public/v1/raffles/<slug>/draw>
  raffle-verify-draw <https://host/api/v1/raffles/<slug>/draw> [--api-key <key>]

Fetches a drawn raffle's proof and recomputes the draw: sha256(seed) must equal the published
commitment, every entry's id, user id and weight must be in its exact format and the entries must
hash to the entries digest, the proof must list min(spots, entries) winners, and ranking the
entries by the seed must give them.

A slug is looked up on the keyless public route, {base-url}/public/v1/raffles/<slug>/draw; the
base URL comes from --base-url, else RAFFLE_BASE_URL, else ${DEFAULT_DATA_PLANE_URL}. A URL may
name a proof or a raffle (…/raffles/<slug>, /draw is added). Only a keyed /api/v1 URL needs an
API key (a personal key with raffles:read): --api-key, else RAFFLE_API_KEY.

Exit status: 0 the draw is valid, 1 it is not, 2 usage or network error.`;

export type DrawVerdict = { valid: boolean; report: string };

const short = (hex: string) => (hex.length > 16 ? `${hex.slice(0, 16)}…` : hex);
const row = (label: string, text: string, ok: boolean) => `  ${label.padEnd(15)} ${ok ? 'ok  ' : 'FAIL'}  ${text}`;

/** Judges a fetched proof and says why, one line per claim, as the CLI prints it. */
export function judgeDrawProof(value: unknown, source?: string): DrawVerdict {
  const header = source ? [`Draw proof of ${source}`] : [];
  const shape = proofShapeProblems(value);
  if (shape.length > 0) {
    return { valid: false, report: [...header, 'INVALID: this is not a draw proof.', ...shape.map((p) => `  - ${p}`)].join('\n') };
  }
  const proof = value as DrawProof;
  const result = verifyDraw(proof);
  const failed = (...reasons: DrawVerificationFailure[]) => result.failures.some((f) => reasons.includes(f.reason));
  const seedOk = !failed('malformed_seed');
  const commitmentOk = seedOk && !failed('commitment_mismatch');
  const fieldsOk = !failed('entry_id_malformed', 'user_id_malformed', 'weight_malformed', 'duplicate_entry');
  const digestOk = !failed('digest_mismatch');
  const countOk = !failed('winner_count_mismatch');
  const winnersOk = seedOk && fieldsOk && !failed('winner_positions', 'winner_mismatch');
  const claimed = [...proof.winners].sort((a, b) => a.position - b.position);
  const expected = Math.min(proof.spots, proof.entries.length);

  const lines = [
    ...header,
    row('algorithm', proof.algorithm, !failed('unknown_algorithm')),
    row('commitment', seedOk ? `sha256(seed) ${commitmentOk ? '=' : '≠'} ${short(proof.drawCommitment)}` : 'the seed is not 32 bytes of hex', commitmentOk),
    row('entry fields', fieldsOk ? 'every id, user id and weight in its exact format, no id twice' : 'an id, user id or weight outside its format, or an id twice', fieldsOk),
    row('entries', `${proof.entries.length} entries ${digestOk ? 'hash to' : 'do not hash to'} ${short(proof.entriesDigest)}`, digestOk),
    row('winner count', `${claimed.length} of ${expected} (${proof.spots} spots, ${proof.entries.length} entries)`, countOk),
    row('winners', `${claimed.length} ${claimed.length === 1 ? 'winner' : 'winners'} ${winnersOk ? 'reproduced from the seed' : fieldsOk ? 'not reproduced from the seed' : 'not recomputed: malformed entries rank nothing'}`, winnersOk),
    ...claimed.map((w, i) => {
      const recomputed = result.recomputedWinners[i];
      const note = !fieldsOk || recomputed === w.entryId ? '' : `  (the draw gives ${recomputed ?? 'nobody'})`;
      return `    #${w.position} ${w.entryId}${note}`;
    }),
  ];
  if (result.valid) lines.push('VALID: the winners follow from the committed seed and the published entries.');
  else lines.push('INVALID:', ...result.failures.map((f) => `  - ${f.message} [${f.reason}]`));
  return { valid: result.valid, report: lines.join('\n') };
}

/** `apiKey` is set only for a keyed /api/v1 URL: the public route is never sent a key. */
export type VerifyDrawArgs = { url: string; apiKey?: string } | { help: true } | { error: string };

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
  if (!location.keyed) return { url: location.url };
  const apiKey = values['api-key'] ?? env.RAFFLE_API_KEY;
  if (!apiKey) return { error: 'an /api/v1 URL needs an API key (--api-key <key> or RAFFLE_API_KEY); a slug or a /public/v1 URL needs none' };
  return { url: location.url, apiKey };
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
  let proof: unknown;
  try {
    ({ proof } = await fetchAndVerifyDraw(args.url, { apiKey: args.apiKey, fetch: io.fetch, timeoutMs: 120_000 }));
  } catch (error) {
    io.err(`raffle-verify-draw: ${describeFailure(args.url, error)}`);
    return EXIT.usage;
  }
  const verdict = judgeDrawProof(proof, args.url);
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
