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
  for (const e of [...eligible].sort(byId)) hash.update(`${e.id}:${e.userId}:${e.weight}\n`);
  return hash.digest('hex');
}

const TWO_POW_64_PLUS_1 = Number(2n ** 64n + 1n);

/** Efraimidis–Spirakis key: ln(u) / weight, with u in (0, 1) drawn from HMAC-SHA256(seed, entryId). */
export function drawKey(seed: Buffer, entry: DrawEntry): number {
  const head = createHmac('sha256', seed).update(entry.id).digest().readBigUInt64BE(0);
  const u = Number(head + 1n) / TWO_POW_64_PLUS_1;
  return Math.log(u) / Number(entry.weight);
}

/** Every eligible entry in draw order: winners are the first `spots`, rerolls take the next ones. */
export function rankEntries(seed: Buffer, eligible: readonly DrawEntry[]): DrawEntry[] {
  return [...eligible]
    .map((entry) => ({ entry, key: drawKey(seed, entry) }))
    .sort((a, b) => b.key - a.key || byId(a.entry, b.entry))
    .map(({ entry }) => entry);
}

export const drawCommitment = (seed: Buffer): string => createHash('sha256').update(seed).digest('hex');
