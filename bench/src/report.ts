import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DbActivity } from './db-activity.js';
import type { ReadRouting } from './read-routing.js';
import { replicaComparison, replicaVerdicts } from './replica-report.js';
import { scenarioKey, type Scenario, type ScenarioId } from './scenarios.js';
import type { WrkResult } from './wrk.js';

export type ScenarioResult = {
  id: ScenarioId;
  label: string;
  wrk: WrkResult;
  /** Percent of one core during the measured run, per process group. */
  cpu: Record<string, number>;
  /** pg_stat_database delta of the benchmark database; `exact` when read after the statistics settled. */
  database: { delta: DbActivity; exact: boolean } | null;
  /** What the single pre-run request showed. */
  probe: string;
  /** Every round, when the run had several; the fields above are the median round's. */
  rounds?: Array<{ requestsPerSecond: number; p50: number; p99: number; cpu: Record<string, number> }>;
  /** `--replica`: set on the results of the data plane whose reads go to the replica. */
  reads?: 'replica';
  /** `--replica`: pg_stat_database delta of the benchmark database on the replica (`database` is the primary's). */
  replicaDatabase?: DbActivity;
  /** Where the data plane's `raffle_reads_total` says its reads went during the measured run. */
  routing?: ReadRouting;
  /** Why that is not what this data plane was set up for (reads that stayed on the primary); the run then fails. */
  routingProblem?: string;
};

export type Verdict = { target: string; measured: string; met: boolean };

export type RunReport = {
  startedAt: string;
  environment: Record<string, string | number>;
  dataset: Record<string, unknown>;
  scenarios: ScenarioResult[];
  verdicts: Verdict[];
  warnings: string[];
  /** Markdown summary of the data plane's CPU profile, when the run was profiled. */
  profile?: string;
};

const fixed = (n: number, digits = 1) => n.toFixed(digits);
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/** Milliseconds of server and Postgres CPU (the replica's too, with `--replica`) per request (the cpu shares are percent of one core). */
export const cpuMsPerRequest = (r: ScenarioResult) => (((r.cpu.server ?? 0) + (r.cpu.postgres ?? 0) + (r.cpu.replica ?? 0)) * 10) / r.wrk.requestsPerSecond;

/** The issue's targets, evaluated on this run's numbers. */
export function evaluateTargets(results: ScenarioResult[]): Verdict[] {
  // The issue's targets are about the data plane as deployed so far: on the primary only.
  const by = (id: ScenarioId) => results.find((r) => r.id === id && !r.reads);
  const bare = by('bare');
  const verdicts: Verdict[] = [];
  const ratio = (r: ScenarioResult) => (bare ? r.wrk.requestsPerSecond / bare.wrk.requestsPerSecond : NaN);

  const e50 = by('entries-50');
  if (e50 && bare) {
    verdicts.push({
      target: 'entries, limit 50: ≥ 8% of bare req/s and p99 < 35 ms',
      measured: `${pct(ratio(e50))} of bare, p99 ${fixed(e50.wrk.latencyMs.p99, 2)} ms`,
      met: ratio(e50) >= 0.08 && e50.wrk.latencyMs.p99 < 35,
    });
  }
  const list = by('public-raffles');
  if (list && bare) {
    verdicts.push({ target: 'public raffle list: ≥ 25% of bare req/s', measured: `${pct(ratio(list))} of bare`, met: ratio(list) >= 0.25 });
  }
  const first = by('entries-100');
  const deep = by('entries-deep-100');
  if (first && deep) {
    const throughputCost = first.wrk.requestsPerSecond / deep.wrk.requestsPerSecond;
    const latencyCost = deep.wrk.latencyMs.p99 / first.wrk.latencyMs.p99;
    // CPU per request moves less than req/s when something else loads the machine: shown as a cross-check.
    const cpuCost = cpuMsPerRequest(deep) / cpuMsPerRequest(first);
    verdicts.push({
      target: 'deep page (900k) within 1.5x the first page (limit 100): req/s and p99',
      measured: `first/deep req/s ${fixed(throughputCost, 2)}x, deep/first p99 ${fixed(latencyCost, 2)}x (server + Postgres CPU per request: deep/first ${fixed(cpuCost, 2)}x)`,
      met: throughputCost <= 1.5 && latencyCost <= 1.5,
    });
  }
  const malformed = by('malformed-key');
  if (malformed?.database) {
    const { wrk, database } = malformed;
    const transactions = database.delta.xactCommit + database.delta.xactRollback;
    const all401 = wrk.errors.status === wrk.requests && wrk.errors.connect + wrk.errors.read + wrk.errors.timeout === 0;
    verdicts.push({
      target: 'malformed key: refused (401) without touching the database',
      measured: `${wrk.requests.toLocaleString('en-US')} requests, ${all401 ? 'all' : 'NOT all'} ≥ 400 (probe: ${malformed.probe}); Δxact_commit ${database.delta.xactCommit}, Δxact_rollback ${database.delta.xactRollback}, Δtup_fetched ${database.delta.tupFetched}, Δtup_returned ${database.delta.tupReturned}`,
      met: all401 && transactions === 0,
    });
  }
  return [...verdicts, ...replicaVerdicts(results)];
}

/** Load that failed where it should have succeeded makes its numbers meaningless: say so. */
export function runWarnings(results: ScenarioResult[], scenarios: Scenario[]): string[] {
  const warnings: string[] = [];
  for (const r of results) {
    const scenario = scenarios.find((s) => scenarioKey(s) === scenarioKey(r))!;
    const { connect, read, write, status, timeout } = r.wrk.errors;
    const failed = (scenario.expectsErrors ? 0 : status) + connect + read + write + timeout;
    if (failed > 0) warnings.push(`${r.label}: ${failed} failed requests (${JSON.stringify(r.wrk.errors)}); its numbers are not comparable`);
    if (r.cpu.other !== undefined && r.cpu.other > 25) {
      warnings.push(`${r.label}: ${r.cpu.other}% of a core went to processes outside the benchmark (other load on the machine)`);
    }
  }
  return warnings;
}

function scenarioTable(report: RunReport): string {
  const bare = report.scenarios.find((r) => r.id === 'bare');
  const postgres = report.scenarios.some((r) => r.cpu.replica !== undefined) ? 'primary + replica' : 'postgres';
  const header =
    `| Scenario | req/s | p50 ms | p99 ms | vs bare | bytes/resp | DB xact/req | CPU ms/req (server + pg) | CPU % of a core: server / ${postgres} / wrk / other |\n` +
    '|---|---:|---:|---:|---:|---:|---:|---:|---|';
  const rows = report.scenarios.map((r) => {
    const vsBare = bare ? pct(r.wrk.requestsPerSecond / bare.wrk.requestsPerSecond) : '–';
    const perRequest = (d: DbActivity) => fixed((d.xactCommit + d.xactRollback) / r.wrk.requests, 3);
    const onReplica = r.replicaDatabase ? ` + ${perRequest(r.replicaDatabase)}` : '';
    const xact = r.database ? `${perRequest(r.database.delta)}${onReplica}${r.database.exact ? ' (exact)' : ''}` : '–';
    const cpu = `${r.cpu.server ?? 0} / ${r.cpu.postgres ?? 0}${r.cpu.replica !== undefined ? ` + ${r.cpu.replica}` : ''} / ${r.cpu.wrk ?? 0} / ${r.cpu.other ?? 0}`;
    const rps = (n: number) => Math.round(n).toLocaleString('en-US');
    const spread = r.rounds ? ` (${rps(Math.min(...r.rounds.map((x) => x.requestsPerSecond)))}–${rps(Math.max(...r.rounds.map((x) => x.requestsPerSecond)))})` : '';
    return `| ${r.label} | ${rps(r.wrk.requestsPerSecond)}${spread} | ${fixed(r.wrk.latencyMs.p50, 2)} | ${fixed(r.wrk.latencyMs.p99, 2)} | ${vsBare} | ${r.wrk.bytesPerRequest} | ${xact} | ${fixed(cpuMsPerRequest(r), 3)} | ${cpu} |`;
  });
  return [header, ...rows].join('\n');
}

function verdictTable(verdicts: Verdict[]): string {
  return [
    '| Target (issue) | Measured | Met |',
    '|---|---|---|',
    ...verdicts.map((v) => `| ${v.target} | ${v.measured} | ${v.met ? 'yes' : '**no**'} |`),
  ].join('\n');
}

export function renderMarkdown(report: RunReport): string {
  const env = Object.entries(report.environment)
    .map(([k, v]) => `${k}: ${v}`)
    .join(' · ');
  return [
    `# Data-plane benchmark, ${report.startedAt}`,
    '',
    env,
    '',
    scenarioTable(report),
    '',
    verdictTable(report.verdicts),
    '',
    ...replicaComparison(report.scenarios),
    ...(report.scenarios.some((r) => r.rounds) ? ['req/s with several rounds: the median round (min–max of all rounds); its latencies are that round\'s.'] : []),
    'DB xact/req: pg_stat_database transactions of the benchmark database per request (approximate: Postgres publishes',
    'counters about once a second; "exact" rows waited for the counters to settle before and after).',
    ...(report.scenarios.some((r) => r.replicaDatabase) ? ['With --replica, DB xact/req and Postgres CPU read "primary + replica".'] : []),
    ...(report.warnings.length ? ['', '## Warnings', '', ...report.warnings.map((w) => `- ${w}`)] : []),
    ...(report.profile ? ['', '## Profile', '', report.profile] : []),
    '',
  ].join('\n');
}

/** Writes `<name>-<timestamp>.json/.md` and `<name>-latest.*` copies; returns the latest markdown's path. */
export async function writeResultFiles(dir: string, name: string, startedAt: string, report: unknown, markdown: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = startedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  await writeFile(join(dir, `${name}-${stamp}.json`), json);
  await writeFile(join(dir, `${name}-${stamp}.md`), markdown);
  await writeFile(join(dir, `${name}-latest.json`), json);
  await writeFile(join(dir, `${name}-latest.md`), markdown);
  return join(dir, `${name}-latest.md`);
}

export function writeReport(dir: string, report: RunReport): Promise<string> {
  return writeResultFiles(dir, 'data-plane', report.startedAt, report, renderMarkdown(report));
}
