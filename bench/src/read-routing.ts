import { parseReadCounts, READS_METRIC } from '@raffle/service-kit/testing/faults';

/**
 * Where the data plane sent its reads, from its own counter `raffle_reads_total{target, reason}`:
 * the benchmark scrapes /metrics around a measured run and refuses to report "reads on the
 * replica" figures for a run whose reads stayed on the primary.
 */

/** One scrape's counters, keyed `<target>:<reason>`; null when the data plane exports no such metric (no read routing). */
export type ReadCounts = Record<string, number> | null;

export type ReadRouting = {
  replica: number;
  primary: number;
  /** `<target>:<reason>` → reads in the window, only those that moved. */
  byReason: Record<string, number>;
  /** False when the data plane exported no `raffle_reads_total` at all. */
  exported: boolean;
};

/** The response header a routed read carries: how stale the answer may be (0 from the primary). */
export const STALENESS_HEADER = 'raffle-staleness-ms';
/** Of the routed reads of a "reads on the replica" run, at least this share must have gone there. */
export const MIN_REPLICA_SHARE = 0.9;

/** The counter's samples, keyed `<target>:<reason>` (the test kit's parser, shared with the replica tests). */
export { parseReadCounts, READS_METRIC };

/** What moved between two scrapes of one data plane. */
export function readRoutingBetween(before: ReadCounts, after: ReadCounts): ReadRouting {
  const routing: ReadRouting = { replica: 0, primary: 0, byReason: {}, exported: after !== null };
  for (const [key, value] of Object.entries(after ?? {})) {
    const moved = value - (before?.[key] ?? 0);
    if (moved <= 0) continue;
    routing.byReason[key] = moved;
    const target = key.split(':')[0];
    if (target === 'replica') routing.replica += moved;
    else if (target === 'primary') routing.primary += moved;
  }
  return routing;
}

export const describeRouting = (routing: ReadRouting): string =>
  routing.exported
    ? `${routing.replica.toLocaleString('en-US')} on the replica, ${routing.primary.toLocaleString('en-US')} on the primary` +
      (Object.keys(routing.byReason).length
        ? ` (${Object.entries(routing.byReason)
            .sort(([, a], [, b]) => b - a)
            .map(([key, n]) => `${key} ${n.toLocaleString('en-US')}`)
            .join(', ')})`
        : '')
    : `no ${READS_METRIC} in /metrics`;

/**
 * Why a run's routing is not what its data plane was set up for, or null. A primary-only data plane
 * (no DATABASE_READ_URL) must send nothing to the replica; one reading from the replica must have
 * routed reads, at least MIN_REPLICA_SHARE of them to the replica.
 */
export function readRoutingProblem(routing: ReadRouting, expected: 'primary' | 'replica'): string | null {
  if (expected === 'primary') return routing.replica > 0 ? `${routing.replica} reads went to the replica of a primary-only data plane` : null;
  if (!routing.exported) return `the data plane exports no ${READS_METRIC}: it does not route reads (is DATABASE_READ_URL supported?)`;
  const routed = routing.replica + routing.primary;
  if (routing.replica === 0) return `no read reached the replica (${describeRouting(routing)})`;
  const share = routing.replica / routed;
  if (share < MIN_REPLICA_SHARE) {
    return `only ${(share * 100).toFixed(1)}% of routed reads reached the replica, below ${MIN_REPLICA_SHARE * 100}% (${describeRouting(routing)})`;
  }
  return null;
}

/** The staleness a response declares, or null when it carries no such header (a read that was not routed). */
export function stalenessOf(headers: Headers): number | null {
  const value = headers.get(STALENESS_HEADER);
  if (value === null || value.trim() === '') return null;
  const ms = Number(value);
  return Number.isFinite(ms) ? ms : null;
}
