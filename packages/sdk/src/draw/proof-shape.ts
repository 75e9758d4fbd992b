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
  return problems;
}
