import type { Sql } from '@raffle/db';
import { ApiError } from '../errors.js';

type DrawRow = {
  mechanic: string;
  status: string;
  seed: string | null;
  drawCommitment: string | null;
  entriesDigest: string | null;
  algorithm: string | null;
  entryLines: string | null;
};

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

/**
 * The draw proof of a raffle the caller may see (product.md, "Verifiable draws"), rendered as
 * JSON. The seed is revealed only once the draw's snapshot exists; winners are the draw's own
 * selections at their original positions, whatever happened to them since.
 */
export async function renderDrawProof(sql: Sql, raffleId: string): Promise<string> {
  const [row] = await sql<DrawRow[]>`
    select r.mechanic, r.status, r.draw_seed as seed, r.draw_commitment as "drawCommitment", r.entries_digest as "entriesDigest",
           s.algorithm, s.entry_lines as "entryLines"
    from raffles r left join raffle_draw_snapshots s on s.raffle_id = r.id
    where r.id = ${raffleId}`;
  if (!row) throw new ApiError('RAFFLE_NOT_FOUND', 'no such raffle');
  if (row.mechanic !== 'raffle') {
    throw new ApiError('DRAW_NOT_AVAILABLE', `this is a ${row.mechanic} raffle: its winners are not chosen by a weighted draw, so there is no draw proof`);
  }
  const drawn = row.status === 'drawn' || row.status === 'finalized';
  if (!drawn || row.entryLines === null || !row.algorithm || !row.seed || !row.drawCommitment || !row.entriesDigest) {
    throw new ApiError('DRAW_NOT_AVAILABLE', `the raffle has not been drawn yet (it is ${row.status}); the proof is published with the draw`);
  }
  const winners = await sql<{ entryId: string; position: number }[]>`
    select entry_id as "entryId", position from wins
    where raffle_id = ${raffleId} and source = 'draw'
    order by position, id`;
  return (
    `{"algorithm":${JSON.stringify(row.algorithm)},"drawCommitment":${JSON.stringify(row.drawCommitment)},` +
    `"seed":${JSON.stringify(row.seed)},"entriesDigest":${JSON.stringify(row.entriesDigest)},` +
    `"entries":${renderDrawEntries(row.entryLines)},"winners":${JSON.stringify(winners)}}`
  );
}
