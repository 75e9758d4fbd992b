import { createHash, createHmac } from 'node:crypto';

/**
 * The verifiable draw of product.md ("es-hmac-sha256-v1"), used by the demo so that its drawn
 * raffles carry winners that a proof verifier recomputes exactly.
 */
export const DRAW_ALGORITHM = 'es-hmac-sha256-v1';

export type DrawEntry = { id: string; userId: string; weight: string };

const byId = (a: DrawEntry, b: DrawEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** sha256 of the eligible entries' canonical lines `id:userId:weight\n`, in id order. */
export function entriesDigest(eligible: readonly DrawEntry[]): string {
  const hash = createHash('sha256');
  for (const e of [...eligible].sort(byId)) hash.update(entryLine(e));
  return hash.digest('hex');
}

const TWO_POW_64_PLUS_1 = Number(2n ** 64n + 1n);

/** Efraimidis–Spirakis key: ln(u) / weight, with u in (0, 1) drawn from HMAC-SHA256(seed, entryId). */
export function drawKey(seed: Buffer, entry: DrawEntry): number {
  const head = createHmac('sha256', seed).update(entry.id).digest().readBigUInt64BE(0);
  const u = Number(head + 1n) / TWO_POW_64_PLUS_1;
  return Math.log(u) / Number(entry.weight);
}

/** Draw order: the highest key first; equal keys (vanishingly rare) by entry id. */
export const drawOrder = (a: { key: number; id: string }, b: { key: number; id: string }): number =>
  b.key - a.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Every eligible entry in draw order: winners are the first `spots`, rerolls take the next ones. */
export function rankEntries(seed: Buffer, eligible: readonly DrawEntry[]): DrawEntry[] {
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

export const drawCommitment = (seed: Buffer): string => createHash('sha256').update(seed).digest('hex');
