import { describeRouting } from './read-routing.js';
import type { ScenarioResult, Verdict } from './report.js';

const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
const perRequest = (transactions: number | undefined, r: ScenarioResult) =>
  transactions === undefined || r.wrk.requests === 0 ? '–' : (transactions / r.wrk.requests).toFixed(3);
const transactionsOf = (delta: { xactCommit: number; xactRollback: number } | null | undefined) =>
  delta ? delta.xactCommit + delta.xactRollback : undefined;
/** Postgres CPU (primary and replica together) per request, in ms: what serving a read costs the database tier. */
export const postgresMsPerRequest = (r: ScenarioResult) => (((r.cpu.postgres ?? 0) + (r.cpu.replica ?? 0)) * 10) / r.wrk.requestsPerSecond;

/** The primary-only result each reads-on-the-replica result is compared with, in run order. */
export function replicaPairs(results: ScenarioResult[]): Array<{ primaryOnly: ScenarioResult | undefined; onReplica: ScenarioResult }> {
  return results.filter((r) => r.reads === 'replica').map((onReplica) => ({ primaryOnly: results.find((r) => r.id === onReplica.id && !r.reads), onReplica }));
}

/**
 * `--replica`: each data plane's reads went where it was set up to send them. Every reads-on-the-
 * replica scenario is a verdict of its own; the primary-only ones share one.
 */
export function replicaVerdicts(results: ScenarioResult[]): Verdict[] {
  const pairs = replicaPairs(results);
  if (pairs.length === 0) return [];
  const verdicts: Verdict[] = pairs.map(({ onReplica: r }) => ({
    target: `${r.label}: reads served by the replica`,
    measured: `${describeRouting(r.routing ?? { replica: 0, primary: 0, byReason: {}, exported: false })}; xact/req primary ${perRequest(transactionsOf(r.database?.delta), r)}, replica ${perRequest(transactionsOf(r.replicaDatabase), r)}${r.routingProblem ? `: ${r.routingProblem}` : ''}`,
    met: !r.routingProblem,
  }));
  const primaryOnly = results.filter((r) => r.routing && !r.reads);
  const strayed = primaryOnly.filter((r) => r.routingProblem);
  // Not the replica's pg_stat_database: the other data plane samples its replay position (10/s) all run long.
  const reads = primaryOnly.reduce((sum, r) => sum + (r.routing?.primary ?? 0), 0);
  verdicts.unshift({
    target: 'primary-only data plane: no read on the replica',
    measured: strayed.length
      ? strayed.map((r) => `${r.label}: ${r.routingProblem}`).join('; ')
      : `${reads.toLocaleString('en-US')} routed reads in ${primaryOnly.length} scenarios, all on the primary`,
    met: strayed.length === 0,
  });
  return verdicts;
}

/** The `--replica` section: each read scenario on the primary only, then with its reads on the replica. */
export function replicaComparison(results: ScenarioResult[]): string[] {
  const pairs = replicaPairs(results);
  if (pairs.length === 0) return [];
  const bare = results.find((r) => r.id === 'bare');
  const row = (r: ScenarioResult, readsOn: string, versus: string) => {
    const cpu = `${r.cpu.server ?? 0} / ${r.cpu.postgres ?? 0} / ${r.cpu.replica ?? 0}`;
    const transactions = `${perRequest(transactionsOf(r.database?.delta), r)} / ${perRequest(transactionsOf(r.replicaDatabase), r)}`;
    const routed = r.routing?.exported ? `${r.routing.replica.toLocaleString('en-US')} / ${r.routing.primary.toLocaleString('en-US')}` : '–';
    return `| ${r.id} | ${readsOn} | ${Math.round(r.wrk.requestsPerSecond).toLocaleString('en-US')} | ${bare ? pct(r.wrk.requestsPerSecond / bare.wrk.requestsPerSecond) : '–'} | ${versus} | ${r.wrk.latencyMs.p99.toFixed(2)} | ${transactions} | ${cpu} | ${postgresMsPerRequest(r).toFixed(3)} | ${routed} |`;
  };
  return [
    '## Reads on the replica',
    '',
    'Two data planes on one primary and its streaming replica (a copy of the dataset), measured back to back in',
    'this run: one on the primary only, one with DATABASE_READ_URL on the replica. Reads routed: the data plane\'s',
    '`raffle_reads_total` over the measured run (replica / primary); xact/req: `pg_stat_database` of each server.',
    '',
    '| Scenario | reads on | req/s | vs bare | vs primary only | p99 ms | xact/req primary / replica | CPU % of a core: server / primary / replica | pg CPU ms/req | reads routed: replica / primary |',
    '|---|---|---:|---:|---:|---:|---|---|---:|---|',
    ...pairs.flatMap(({ primaryOnly, onReplica }) => [
      ...(primaryOnly ? [row(primaryOnly, 'primary', '')] : []),
      row(onReplica, 'replica', primaryOnly ? pct(onReplica.wrk.requestsPerSecond / primaryOnly.wrk.requestsPerSecond) : '–'),
    ]),
    '',
  ];
}
