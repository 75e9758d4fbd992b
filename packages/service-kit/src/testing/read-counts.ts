/**
 * The data plane's `raffle_reads_total{target, reason}` (where each routed read ran, and why) out
 * of a Prometheus text exposition, keyed `<target>:<reason>` and summed over any other labels
 * (`service`) in any order. Null when the exposition has no such metric (no read routing).
 */
export const READS_METRIC = 'raffle_reads_total';

const SAMPLE = new RegExp(`^${READS_METRIC}\\{([^}]*)\\}\\s+(\\S+)`);
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export function parseReadCounts(metricsText: string): Record<string, number> | null {
  let counts: Record<string, number> | null = null;
  for (const line of metricsText.split('\n')) {
    if (line.startsWith(`# TYPE ${READS_METRIC} `)) counts ??= {};
    const sample = SAMPLE.exec(line);
    if (!sample) continue;
    const labels = Object.fromEntries([...sample[1]!.matchAll(LABEL)].map((m) => [m[1]!, m[2]!]));
    const key = `${labels.target ?? '?'}:${labels.reason ?? '?'}`;
    counts ??= {};
    counts[key] = (counts[key] ?? 0) + Number(sample[2]);
  }
  return counts;
}
