const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What keeps `value` from being a draw proof at all, before any of its claims is checked: a
 * proof from the network is untrusted input, and the verifier must answer INVALID, not throw.
 */
export function proofShapeProblems(value: unknown): string[] {
  if (!isRecord(value)) return ['the proof is not a JSON object'];
  const problems: string[] = [];
  for (const field of ['algorithm', 'drawCommitment', 'seed', 'entriesDigest'] as const) {
    if (typeof value[field] !== 'string') problems.push(`${field} is missing or not a string`);
  }
  if (!(Number.isInteger(value.spots) && (value.spots as number) >= 1)) problems.push('spots is missing or not a positive integer');
  if (!Array.isArray(value.entries)) problems.push('entries is missing or not an array');
  else if (!value.entries.every((e) => isRecord(e) && typeof e.id === 'string' && typeof e.userId === 'string' && typeof e.weight === 'string')) {
    problems.push('every entry needs string id, userId and weight');
  }
  if (!Array.isArray(value.winners)) problems.push('winners is missing or not an array');
  else if (!value.winners.every((w) => isRecord(w) && typeof w.entryId === 'string' && Number.isInteger(w.position))) {
    problems.push('every winner needs a string entryId and an integer position');
  }
  problems.push(...winnerChangeShapeProblems(value));
  return problems;
}

const isTime = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));

/** `disqualifiedWinners` and `rerolledWinners`, when present (issue 34): entries at positions, with times. */
function winnerChangeShapeProblems(value: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const { disqualifiedWinners, rerolledWinners } = value;
  const atPosition = (w: unknown): w is Record<string, unknown> => isRecord(w) && typeof w.entryId === 'string' && Number.isInteger(w.position);
  if (disqualifiedWinners !== undefined) {
    const ok = Array.isArray(disqualifiedWinners) && disqualifiedWinners.every((w) => atPosition(w) && isTime(w.disqualifiedAt) && (w.replacedAt === undefined || isTime(w.replacedAt)));
    if (!ok) problems.push('disqualifiedWinners must list entryId, position and disqualifiedAt (and replacedAt once rerolled)');
  }
  if (rerolledWinners !== undefined) {
    const ok = Array.isArray(rerolledWinners) && rerolledWinners.every((w) => atPosition(w) && isTime(w.selectedAt));
    if (!ok) problems.push('rerolledWinners must list entryId, position and selectedAt');
  }
  return problems;
}
