import { parseArgs } from 'node:util';
import { verifyDraw, type DrawProof } from '../verify-draw.js';
import { DRAW_ALGORITHM, drawCommitment, entriesDigest } from '../weighted-draw.js';

/** Exit codes of `raffle-verify-draw`. */
export const EXIT = { valid: 0, invalid: 1, usage: 2 } as const;

export const USAGE = `Usage:
  raffle-verify-draw <https://host/api/v1/raffles/<slug>/draw> [--api-key <key>]
  raffle-verify-draw <base-url> --slug <slug> [--api-key <key>]

Fetches a drawn raffle's proof and recomputes the draw: sha256(seed) must equal the published
commitment, the entries must hash to the entries digest, and ranking them by the seed must give
the winners. The API key (a personal key with raffles:read) may come from RAFFLE_API_KEY.

Exit status: 0 the draw is valid, 1 it is not, 2 usage or network error.`;

const HEX64 = /^[0-9a-f]{64}$/;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What keeps `value` from being a draw proof at all (before any of its claims is checked). */
export function proofShapeProblems(value: unknown): string[] {
  if (!isRecord(value)) return ['the response is not a JSON object'];
  const problems: string[] = [];
  for (const field of ['algorithm', 'drawCommitment', 'seed', 'entriesDigest'] as const) {
    if (typeof value[field] !== 'string') problems.push(`${field} is missing or not a string`);
  }
  if (!Array.isArray(value.entries)) problems.push('entries is missing or not an array');
  else if (!value.entries.every((e) => isRecord(e) && typeof e.id === 'string' && typeof e.userId === 'string' && typeof e.weight === 'string')) {
    problems.push('every entry needs string id, userId and weight');
  }
  if (!Array.isArray(value.winners)) problems.push('winners is missing or not an array');
  else if (!value.winners.every((w) => isRecord(w) && typeof w.entryId === 'string' && Number.isInteger(w.position))) {
    problems.push('every winner needs a string entryId and an integer position');
  }
  return problems;
}

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
  const seedOk = HEX64.test(proof.seed);
  const commitmentOk = seedOk && drawCommitment(Buffer.from(proof.seed, 'hex')) === proof.drawCommitment;
  const digestOk = entriesDigest(proof.entries) === proof.entriesDigest;
  const winnerProblems = result.problems.filter((p) => p.startsWith('position') || p.startsWith('winner'));
  const winnersOk = seedOk && winnerProblems.length === 0;
  const claimed = [...proof.winners].sort((a, b) => a.position - b.position);

  const lines = [
    ...header,
    row('algorithm', proof.algorithm, proof.algorithm === DRAW_ALGORITHM),
    row('commitment', seedOk ? `sha256(seed) ${commitmentOk ? '=' : '≠'} ${short(proof.drawCommitment)}` : 'the seed is not 32 bytes of hex', commitmentOk),
    row('entries', `${proof.entries.length} entries ${digestOk ? 'hash to' : 'do not hash to'} ${short(proof.entriesDigest)}`, digestOk),
    row('winners', `${claimed.length} ${claimed.length === 1 ? 'winner' : 'winners'} ${winnersOk ? 'reproduced from the seed' : 'not reproduced from the seed'}`, winnersOk),
    ...claimed.map((w, i) => {
      const recomputed = result.recomputedWinners[i];
      return `    #${w.position} ${w.entryId}${recomputed === w.entryId ? '' : `  (the draw gives ${recomputed ?? 'nobody'})`}`;
    }),
  ];
  if (result.valid) lines.push('VALID: the winners follow from the committed seed and the published entries.');
  else lines.push('INVALID:', ...result.problems.map((p) => `  - ${p}`));
  return { valid: result.valid, report: lines.join('\n') };
}

export type VerifyDrawArgs = { url: string; apiKey: string } | { help: true } | { error: string };

const DRAW_PATH = /\/api\/v1\/raffles\/[^/]+\/draw\/?$/;
const RAFFLE_PATH = /\/api\/v1\/raffles\/[^/]+\/?$/;

/** The proof URL and key from the command line (and RAFFLE_API_KEY), or what is wrong with them. */
export function parseVerifyDrawArgs(argv: readonly string[], env: Record<string, string | undefined>): VerifyDrawArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { 'api-key': { type: 'string' }, slug: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return { error: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length !== 1) return { error: positionals.length === 0 ? 'give the proof URL, or a base URL and --slug' : 'give exactly one URL' };
  let url: URL;
  try {
    url = new URL(positionals[0]!);
  } catch {
    return { error: `not a URL: ${positionals[0]}` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { error: `the URL must be http(s): ${url.href}` };
  if (values.slug !== undefined) {
    if (values.slug === '' || values.slug.includes('/')) return { error: '--slug must be a raffle slug' };
    if (DRAW_PATH.test(url.pathname)) return { error: 'give either a proof URL or a base URL with --slug, not both' };
    const base = url.href.endsWith('/') ? url.href : `${url.href}/`;
    url = new URL(`api/v1/raffles/${encodeURIComponent(values.slug)}/draw`, base);
  } else if (RAFFLE_PATH.test(url.pathname)) {
    url.pathname = `${url.pathname.replace(/\/$/, '')}/draw`;
  } else if (!DRAW_PATH.test(url.pathname)) {
    return { error: `${url.href} is not a draw proof URL (…/api/v1/raffles/<slug>/draw); pass the base URL with --slug instead` };
  }
  const apiKey = values['api-key'] ?? env.RAFFLE_API_KEY;
  if (!apiKey) return { error: 'an API key is needed: --api-key <key> or RAFFLE_API_KEY' };
  return { url: url.href, apiKey };
}

export type CliIo = {
  fetch: typeof fetch;
  out: (text: string) => void;
  err: (text: string) => void;
};

/** The whole command: parse, fetch with the key as a Bearer token, judge, print. Returns the exit code. */
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
  let response: Response;
  let text: string;
  try {
    response = await io.fetch(args.url, {
      headers: { authorization: `Bearer ${args.apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(120_000),
    });
    text = await response.text();
  } catch (error) {
    io.err(`raffle-verify-draw: could not fetch ${args.url}: ${(error as Error).message}`);
    return EXIT.usage;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    io.err(`raffle-verify-draw: ${args.url} answered ${response.status} with a body that is not JSON`);
    return EXIT.usage;
  }
  if (!response.ok) {
    const b = isRecord(body) ? body : {};
    const message = Array.isArray(b.message) ? b.message.join('; ') : String(b.message ?? response.statusText);
    io.err(`raffle-verify-draw: ${args.url} answered ${response.status}${typeof b.code === 'string' ? ` ${b.code}` : ''}: ${message}`);
    return EXIT.usage;
  }
  const verdict = judgeDrawProof(body, args.url);
  io.out(verdict.report);
  return verdict.valid ? EXIT.valid : EXIT.invalid;
}
