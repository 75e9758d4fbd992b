import type { DrawWinnerPosition, WinnerChanges } from '../queries/draw-proofs.js';
import type { DrawBeaconRecord, EligibilityBlockRecord } from '../schema/draws.js';

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
 * A drawn raffle's proof (product.md, "Verifiable draws") as JSON, from its published draw fields.
 * A beacon draw adds `closedAt` and its `beacon` block; a draw that re-read on-chain requirements
 * adds `eligibilityBlocks` (and `closedAt`, which they are fixed by); a disqualified or rerolled
 * winner adds `disqualifiedWinners` and `rerolledWinners`. A draw from before any of them, and
 * one whose winners never changed, renders exactly as it always did, so its proof stays byte-identical.
 */
export function renderDrawProof(
  draw: {
    algorithm: string;
    closedAt: Date | null;
    beacon: DrawBeaconRecord | null;
    /** Absent, null or empty: the raffle read no chain, and the proof has no `eligibilityBlocks`. */
    eligibilityBlocks?: readonly EligibilityBlockRecord[] | null;
    drawCommitment: string;
    seed: string;
    entriesDigest: string;
    spots: number;
    entryLines: string;
  },
  winners: DrawWinnerPosition[],
  changes: WinnerChanges = { disqualified: [], rerolled: [] },
): string {
  const blocks = draw.eligibilityBlocks ?? [];
  const closed = draw.closedAt !== null && (draw.beacon !== null || blocks.length > 0) ? `"closedAt":${JSON.stringify(draw.closedAt.toISOString())},` : '';
  const beacon = draw.beacon === null ? '' : renderBeaconFields(draw.beacon);
  const eligibility = blocks.length === 0 ? '' : `"eligibilityBlocks":${JSON.stringify(blocks.map(({ chain, chainId, number, hash, timestamp }) => ({ chain, chainId, number, hash, timestamp })))},`;
  return (
    `{"algorithm":${JSON.stringify(draw.algorithm)},${closed}${beacon}${eligibility}"drawCommitment":${JSON.stringify(draw.drawCommitment)},` +
    `"seed":${JSON.stringify(draw.seed)},"entriesDigest":${JSON.stringify(draw.entriesDigest)},"spots":${JSON.stringify(draw.spots)},` +
    `"entries":${renderDrawEntries(draw.entryLines)},"winners":${JSON.stringify(winners)}${renderWinnerChanges(changes)}}`
  );
}

function renderBeaconFields(beacon: DrawBeaconRecord): string {
  const { chainHash, publicKey, period, genesisTime, round, signature, randomness } = beacon;
  return `"beacon":${JSON.stringify({ chainHash, publicKey, period, genesisTime, round, signature, randomness })},`;
}

/** After the winners, only when there is something to say: a proof whose winners never changed keeps its bytes (and ETag). */
function renderWinnerChanges({ disqualified, rerolled }: WinnerChanges): string {
  const parts = [
    ...(disqualified.length === 0 ? [] : [`"disqualifiedWinners":${JSON.stringify(disqualified.map(({ entryId, position, disqualifiedAt, replacedAt }) => ({ entryId, position, disqualifiedAt, ...(replacedAt === undefined ? {} : { replacedAt }) })))}`]),
    ...(rerolled.length === 0 ? [] : [`"rerolledWinners":${JSON.stringify(rerolled.map(({ entryId, position, selectedAt }) => ({ entryId, position, selectedAt })))}`]),
  ];
  return parts.map((p) => `,${p}`).join('');
}
