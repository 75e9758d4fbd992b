import { toHex } from './crypto/encoding.js';
import { hmacSha256, sha256 } from './crypto/hash.js';

/**
 * The verifiable draw of product.md ("es-hmac-sha256-v1"): the server's draw (packages/domain),
 * the demo's drawn raffles and every verifier recompute it with these functions. Byte-based and
 * free of node:crypto, so it runs the same in browsers (see crypto/hash.ts).
 */
export const DRAW_ALGORITHM = 'es-hmac-sha256-v1';

export type DrawEntry = { id: string; userId: string; weight: string };

const byId = (a: DrawEntry, b: DrawEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** sha256 of the eligible entries' canonical lines `id:userId:weight\n`, in id order. */
export function entriesDigest(eligible: readonly DrawEntry[]): string {
  const lines = [...eligible].sort(byId).map(entryLine).join('');
  return toHex(sha256(lines));
}

const TWO_POW_64_PLUS_1 = Number(2n ** 64n + 1n);

/** Efraimidis–Spirakis key: ln(u) / weight, with u in (0, 1) drawn from HMAC-SHA256(seed, entryId). */
export function drawKey(seed: Uint8Array, entry: DrawEntry): number {
  const mac = hmacSha256(seed, entry.id);
  const head = new DataView(mac.buffer, mac.byteOffset, 8).getBigUint64(0);
  const u = Number(head + 1n) / TWO_POW_64_PLUS_1;
  return Math.log(u) / Number(entry.weight);
}

/** Draw order: the highest key first; equal keys (vanishingly rare) by entry id. */
export const drawOrder = (a: { key: number; id: string }, b: { key: number; id: string }): number =>
  b.key - a.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Every eligible entry in draw order: winners are the first `spots`, rerolls take the next ones. */
export function rankEntries(seed: Uint8Array, eligible: readonly DrawEntry[]): DrawEntry[] {
  return [...eligible]
    .map((entry) => ({ entry, id: entry.id, key: drawKey(seed, entry) }))
    .sort(drawOrder)
    .map(({ entry }) => entry);
}

/** Parses the canonical lines of a draw snapshot (`id:userId:weight\n` each) back into entries. */
export function parseEntryLines(lines: string): DrawEntry[] {
  const entries: DrawEntry[] = [];
  for (const line of lines.split('\n')) {
    if (line === '') continue;
    const [id, userId, weight] = line.split(':');
    entries.push({ id: id!, userId: userId!, weight: weight! });
  }
  return entries;
}

export const entryLine = (e: DrawEntry): string => `${e.id}:${e.userId}:${e.weight}\n`;

/** sha256 of the seed, hex: published when the raffle is, so the seed cannot change afterwards. */
export const drawCommitment = (seed: Uint8Array): string => toHex(sha256(seed));
