import { parseArgs } from 'node:util';
import type { Allowlist, AllowlistLeaf, AllowlistVersion, DrawProof } from '../client/api-types.js';
import { DEFAULT_DATA_PLANE_URL } from '../client/raffle-client.js';
import { checkAllowlistVersion, type AllowlistCheck } from '../allowlist/allowlist-check.js';
import { fetchPublicAllowlist, publicAllowlistLeaves } from '../allowlist/public-allowlist.js';
import { publicHttpClient } from '../draw/public-http-client.js';
import { RaffleApiError, RaffleError } from '../http/raffle-api-error.js';
import type { CliIo } from './draw-verdict.js';

/** Exit codes of `raffle-verify-allowlist`. */
export const ALLOWLIST_EXIT = { valid: 0, invalid: 1, usage: 2 } as const;

export const ALLOWLIST_USAGE = `Usage:
  raffle-verify-allowlist <slug> [--base-url <url>] [--version <n>]

Checks a public or unlisted raffle's published allowlist against its public leaves and its draw
proof, with no API key. It fetches, from the keyless routes under the base URL,
  {base-url}/public/v1/raffles/<slug>/allowlist           the versions, roots and counts
  {base-url}/public/v1/raffles/<slug>/allowlist/leaves    every leaf of the version, with its proof
  {base-url}/public/v1/raffles/<slug>/draw                the draw proof (for a drawn raffle)
and checks, for the current version (or the one --version names):
  proofs      every leaf's proof verifies against the version's root (MerkleProof.verify, offline);
  root        rebuilding the StandardMerkleTree (["address","uint256"], sorted leaves) from the
              leaves gives the published root: the root was built from exactly these leaves;
  leaf count  the leaves served are as many as the version says;
  quantities  each leaf's quantity is the raffle's quantityPerWinner times the winners who named
              that wallet, which gives the number of winners listed;
  winners     winners listed + unlistedWinners (winners without a wallet on the raffle's chain)
              equals the winners the draw proof has holding a position when the version was
              published: its winners, plus rerolls selected by then, minus wins disqualified by
              then. Skipped for a raffle with no draw proof (first come, first served, collection
              and application raffles).

What it cannot check: the draw proof names entries, not wallets, so that each winner's leaf is
that winner's wallet is not checked, nor the draw itself: run raffle-verify-draw <slug> for that.
The leaves are public only when the raffle's team turned on its allowlistPublic setting; without
them nothing can be rebuilt, and the command says so.

The base URL comes from --base-url, else RAFFLE_BASE_URL, else ${DEFAULT_DATA_PLANE_URL}.

Exit status: 0 every check holds, 1 one does not, 2 usage or network error, no published version,
or leaves that are not public.`;

export type VerifyAllowlistArgs = { slug: string; baseUrl: string; version?: number } | { help: true } | { error: string };

export function parseVerifyAllowlistArgs(argv: readonly string[], env: Record<string, string | undefined>): VerifyAllowlistArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { 'base-url': { type: 'string' }, version: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return { error: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length !== 1) return { error: positionals.length === 0 ? 'give a raffle slug' : 'give exactly one slug' };
  const slug = positionals[0]!;
  if (slug === '' || slug.includes('/')) return { error: `not a raffle slug: ${slug}` };
  const baseUrl = values['base-url'] ?? env.RAFFLE_BASE_URL ?? DEFAULT_DATA_PLANE_URL;
  if (!/^https?:\/\//.test(baseUrl)) return { error: `the base URL must be http(s): ${baseUrl}` };
  const version = values.version;
  if (version !== undefined && !/^[1-9][0-9]{0,8}$/.test(version)) return { error: `--version takes a version number, not ${JSON.stringify(version)}` };
  return { slug, baseUrl, ...(version === undefined ? {} : { version: Number(version) }) };
}

const row = (c: AllowlistCheck) => `  ${c.check.padEnd(11)} ${c.ok === null ? '--  ' : c.ok ? 'ok  ' : 'FAIL'}  ${c.text}`;

/** The version to check and why it may not be the whole story, or why there is none. */
function chosenVersion(allowlist: Allowlist, wanted: number | undefined): { version: AllowlistVersion; notes: string[] } | { error: string } {
  if (wanted === undefined) {
    if (!allowlist.current) return { error: `${allowlist.slug} has no published allowlist version yet (status ${allowlist.status})` };
    const notes = allowlist.status === 'building' ? ['note: a newer version is being built; this checks the current one'] : [];
    return { version: allowlist.current, notes };
  }
  const version = allowlist.versions.find((v) => v.version === wanted);
  if (!version) return { error: `${allowlist.slug} has no version ${wanted} (versions: ${allowlist.versions.map((v) => v.version).join(', ') || 'none'})` };
  return { version, notes: [] };
}

/** The draw proof, or null when the raffle has none (404 DRAW_NOT_AVAILABLE: not a weighted draw). */
async function drawProofOf(slug: string, baseUrl: string, fetchImpl: typeof fetch): Promise<DrawProof | null> {
  try {
    return await publicHttpClient({ baseUrl, fetch: fetchImpl }).request<DrawProof>({ method: 'GET', path: `/public/v1/raffles/${encodeURIComponent(slug)}/draw` });
  } catch (error) {
    if (error instanceof RaffleApiError && error.code === 'DRAW_NOT_AVAILABLE') return null;
    throw error;
  }
}

function describeFailure(what: string, error: unknown): string {
  if (error instanceof RaffleApiError) {
    if (error.status === 404 && error.code === 'NOT_FOUND' && what === 'the leaves') return 'the leaves of this allowlist are not public (the raffle\'s allowlistPublic setting is off): nothing can be rebuilt';
    return `${what}: the platform answered ${error.status}${error.code ? ` ${error.code}` : ''}: ${error.message}`;
  }
  if (error instanceof RaffleError) return `${what}: ${error.message}`;
  return `${what}: ${(error as Error)?.message ?? String(error)}`;
}

/** The whole command: parse, fetch the allowlist, its leaves and the draw proof, check, print. Returns the exit code. */
export async function runVerifyAllowlist(argv: readonly string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const args = parseVerifyAllowlistArgs(argv, env);
  if ('help' in args) {
    io.out(ALLOWLIST_USAGE);
    return ALLOWLIST_EXIT.valid;
  }
  if ('error' in args) {
    io.err(`raffle-verify-allowlist: ${args.error}\n\n${ALLOWLIST_USAGE}`);
    return ALLOWLIST_EXIT.usage;
  }
  const route = { baseUrl: args.baseUrl, fetch: io.fetch };
  let step = 'the allowlist';
  try {
    const allowlist = await fetchPublicAllowlist(args.slug, route);
    const chosen = chosenVersion(allowlist, args.version);
    if ('error' in chosen) {
      io.err(`raffle-verify-allowlist: ${chosen.error}`);
      return ALLOWLIST_EXIT.usage;
    }
    step = 'the leaves';
    const leaves: AllowlistLeaf[] = [];
    for await (const leaf of publicAllowlistLeaves(args.slug, { version: chosen.version.version, limit: 250 }, route)) leaves.push(leaf);
    step = 'the draw proof';
    const drawProof = await drawProofOf(args.slug, args.baseUrl, io.fetch);
    const checks = checkAllowlistVersion({ version: chosen.version, leaves, quantityPerWinner: allowlist.quantityPerWinner, drawProof });
    const valid = checks.every((c) => c.ok !== false);
    io.out(
      [
        `Allowlist of ${args.slug}, version ${chosen.version.version} of ${allowlist.versions.length} (root ${chosen.version.root}, published ${chosen.version.publishedAt})`,
        ...chosen.notes,
        ...checks.map(row),
        valid ? 'VALID: the root was built from these leaves, and they list as many winners as the draw proof holds.' : 'INVALID: a check failed (FAIL above).',
      ].join('\n'),
    );
    return valid ? ALLOWLIST_EXIT.valid : ALLOWLIST_EXIT.invalid;
  } catch (error) {
    io.err(`raffle-verify-allowlist: ${describeFailure(step, error)}`);
    return ALLOWLIST_EXIT.usage;
  }
}
