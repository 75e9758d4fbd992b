/** What the data planes' /metrics say about read routing (raffle_reads_total, raffle_read_replica_available). */

const metricsOf = async (origin: string) => (await fetch(`${origin}/metrics`)).text();

/** `raffle_reads_total` of one data plane, by `target:reason`. */
export async function readCounts(origin: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [, labels, n] of (await metricsOf(origin)).matchAll(/^raffle_reads_total\{([^}]*)\} (\d+)/gm)) {
    const target = /target="(\w+)"/.exec(labels!)![1]!;
    const reason = /reason="(\w+)"/.exec(labels!)![1]!;
    counts[`${target}:${reason}`] = Number(n);
  }
  return counts;
}

/** How many more reads each `target:reason` counted in `after` than in `before`. */
export const countsSince = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([reason, n]) => [reason, n - (before[reason] ?? 0)]).filter(([, n]) => (n as number) > 0)) as Record<string, number>;

/** Whether the data plane sends reads to its replica now. */
export const replicaAvailable = async (origin: string) => /^raffle_read_replica_available(\{[^}]*\})? 1$/m.test(await metricsOf(origin));
