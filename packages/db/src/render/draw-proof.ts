import type { DrawWinnerPosition } from '../queries/draw-proofs.js';

/** Canonical lines whose values JSON can carry unescaped: prefixed ids and decimal weights. */
const PLAIN_LINES = /^(?:[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+:[0-9.]+\n)*$/;
const PLAIN_LINE = /([^:\n]+):([^:\n]+):([^\n]+)\n/g;

/**
 * The snapshot's canonical lines (`id:userId:weight\n`, in id order) as the proof's JSON array,
 * written straight from the text: a million-entry proof never exists as a million objects, and
 * in the usual case is one native regex pass (about half a second per million lines).
 */
export function renderDrawEntries(lines: string): string {
  if (lines === '') return '[]';
  const text = lines.endsWith('\n') ? lines : `${lines}\n`;
  if (PLAIN_LINES.test(text)) return `[${text.replace(PLAIN_LINE, '{"id":"$1","userId":"$2","weight":"$3"},').slice(0, -1)}]`;
  const parts: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const [id = '', userId = '', weight = ''] = line.split(':');
    parts.push(`{"id":${JSON.stringify(id)},"userId":${JSON.stringify(userId)},"weight":${JSON.stringify(weight)}}`);
  }
  return `[${parts.join(',')}]`;
}

/** A drawn raffle's proof (product.md, "Verifiable draws") as JSON, from its published draw fields. */
export function renderDrawProof(
  draw: { algorithm: string; drawCommitment: string; seed: string; entriesDigest: string; spots: number; entryLines: string },
  winners: DrawWinnerPosition[],
): string {
  return (
    `{"algorithm":${JSON.stringify(draw.algorithm)},"drawCommitment":${JSON.stringify(draw.drawCommitment)},` +
    `"seed":${JSON.stringify(draw.seed)},"entriesDigest":${JSON.stringify(draw.entriesDigest)},"spots":${JSON.stringify(draw.spots)},` +
    `"entries":${renderDrawEntries(draw.entryLines)},"winners":${JSON.stringify(winners)}}`
  );
}
