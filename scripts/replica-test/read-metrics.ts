import { parseReadCounts } from '@raffle/service-kit/testing/faults';

/** What the data planes' /metrics say about read routing (raffle_reads_total, raffle_read_replica_available). */

const metricsOf = async (origin: string) => (await fetch(`${origin}/metrics`)).text();

/** `raffle_reads_total` of one data plane, by `target:reason`. */
export async function readCounts(origin: string): Promise<Record<string, number>> {
  return parseReadCounts(await metricsOf(origin)) ?? {};
}

/** How many more reads each `target:reason` counted in `after` than in `before`. */
export const countsSince = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([reason, n]) => [reason, n - (before[reason] ?? 0)]).filter(([, n]) => (n as number) > 0)) as Record<string, number>;

/** Whether the data plane sends reads to its replica now. */
export const replicaAvailable = async (origin: string) => /^raffle_read_replica_available(\{[^}]*\})? 1$/m.test(await metricsOf(origin));
