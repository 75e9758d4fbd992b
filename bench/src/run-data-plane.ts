import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { parentPid, snapshotCpu, cpuBetween, CORES } from './cpu.js';
import { activityDelta, readDbActivity, STATS_SETTLE_MS, type DbActivity } from './db-activity.js';
import { ensureKeys } from './keys.js';
import { readOptions } from './options.js';
import { monotonicNowUs, profileSummaryOf, type MonotonicWindow } from './profile-summary.js';
import {
  evaluateTargets,
  renderMarkdown,
  runWarnings,
  writeReport,
  type RunReport,
  type ScenarioResult,
} from './report.js';
import { buildScenarios, type Scenario, type ScenarioId } from './scenarios.js';
import { ensureDataset } from './seed.js';
import { prepareDataPlane, startBareFastify, startDataPlane, type ChildServer } from './servers.js';
import { startWrk, wrkVersion } from './wrk.js';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => console.log(`[bench] ${line}`);

const options = readOptions(process.argv.slice(2), process.env);
const startedAt = new Date().toISOString();

// The run must end by itself: seeding, building and every scenario have a generous ceiling.
const perScenarioSeconds = options.warmupSeconds + options.durationSeconds + 15;
// 20 minutes for seeding and building, then at most 7 scenarios per round.
const budgetSeconds = 20 * 60 + options.rounds * (7 * perScenarioSeconds + (2 * STATS_SETTLE_MS) / 1000);
const watchdog = setTimeout(() => {
  console.error(`[bench] watchdog: still running after ${budgetSeconds} s, stopping`);
  process.exit(3);
}, budgetSeconds * 1000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

const adminSql = postgres(`${options.postgresUrl}/postgres`, { max: 1, onnotice: () => {} });
const benchUrl = `${options.postgresUrl}/${options.databaseName}`;

/** One scenario: a probe request, a discarded warm-up, then the measured run with CPU and database counters around it. */
async function runScenario(
  scenario: Scenario,
  server: ChildServer,
  postmasterPid: number,
): Promise<ScenarioResult & { window: MonotonicWindow }> {
  const url = server.url + scenario.path;
  const response = await fetch(url, { headers: scenario.headers });
  const body = await response.json().catch(() => null);
  const problem = scenario.check(response.status, body);
  if (problem) throw new Error(`${scenario.label}: ${problem}`);
  const probe = scenario.expectsErrors ? `${response.status} ${(body as { code?: string }).code}` : `${response.status}`;

  const load = { url, headers: scenario.headers, connections: options.connections, threads: options.threads };
  await startWrk({ ...load, durationSeconds: options.warmupSeconds }).result;

  const measuresDatabase = scenario.server === 'data-plane';
  if (scenario.exactDatabaseDelta) {
    log(`  waiting ${STATS_SETTLE_MS / 1000} s for Postgres statistics to settle`);
    await sleep(STATS_SETTLE_MS);
  }
  const dbBefore: DbActivity | null = measuresDatabase ? await readDbActivity(adminSql, options.databaseName) : null;

  const fromUs = monotonicNowUs();
  const wrk = startWrk({ ...load, durationSeconds: options.durationSeconds });
  // CPU is sampled inside the run (wrk's process is gone once it ends), skipping its first and last half second.
  await sleep(500);
  const cpuBefore = snapshotCpu();
  await sleep(Math.max(500, options.durationSeconds * 1000 - 1000));
  const cpuAfter = snapshotCpu();
  const result = await wrk.result;
  const window = { fromUs, toUs: monotonicNowUs() };

  if (scenario.exactDatabaseDelta) await sleep(STATS_SETTLE_MS);
  const dbAfter = measuresDatabase ? await readDbActivity(adminSql, options.databaseName) : null;

  const cpu = cpuBetween(cpuBefore, cpuAfter, {
    server: (p) => p.pid === server.pid,
    postgres: (p) => p.pid === postmasterPid || p.ppid === postmasterPid,
    wrk: (p) => p.pid === wrk.pid,
  });
  return {
    id: scenario.id,
    label: scenario.label,
    wrk: result,
    cpu,
    database: dbBefore && dbAfter ? { delta: activityDelta(dbBefore, dbAfter), exact: scenario.exactDatabaseDelta ?? false } : null,
    probe,
    window,
  };
}

function selectScenarios(all: Scenario[], only: string[] | null): Scenario[] {
  if (!only) return all;
  const unknown = only.filter((id) => !all.some((s) => s.id === id));
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${all.map((s) => s.id).join(', ')}`);
  return all.filter((s) => only.includes(s.id));
}

/** The round with the median req/s stands for the scenario; every round stays in the JSON. */
function medianRun(rounds: ScenarioResult[]): ScenarioResult {
  const sorted = [...rounds].sort((a, b) => a.wrk.requestsPerSecond - b.wrk.requestsPerSecond);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  if (rounds.length === 1) return median;
  return {
    ...median,
    rounds: rounds.map((r) => ({ requestsPerSecond: r.wrk.requestsPerSecond, p50: r.wrk.latencyMs.p50, p99: r.wrk.latencyMs.p99, cpu: r.cpu })),
  };
}

function describe(result: ScenarioResult) {
  const { requestsPerSecond, latencyMs } = result.wrk;
  log(
    `  ${Math.round(requestsPerSecond)} req/s, p50 ${latencyMs.p50} ms, p99 ${latencyMs.p99} ms; CPU (% of a core) server ${result.cpu.server}, postgres ${result.cpu.postgres}, wrk ${result.cpu.wrk}, other ${result.cpu.other}`,
  );
}

async function main() {
  const { manifest, seededNow } = await ensureDataset(
    { adminUrl: `${options.postgresUrl}/postgres`, benchUrl, databaseName: options.databaseName },
    options.spec,
    { reseed: options.reseed, log },
  );
  const keys = await ensureKeys(benchUrl, manifest, `${RESULTS_DIR}keys.json`);
  const mode = await prepareDataPlane(options.mode, log);
  log(`data plane: running ${mode === 'dist' ? 'the compiled build (node dist/server.js)' : 'the sources through tsx'}`);

  const [postgresServer] = await adminSql<{ pid: number; version: string }[]>`
    select pg_backend_pid() as pid, current_setting('server_version') as version`;
  const postmasterPid = parentPid(postgresServer!.pid);
  const cursorSecret = randomBytes(32).toString('hex');
  const scenarios = selectScenarios(buildScenarios(manifest, keys, cursorSecret), options.only);
  const profileDir = options.profile ? join(RESULTS_DIR, 'profiles', startedAt.replace(/[:.]/g, '-')) : undefined;
  const profiledWindows: MonotonicWindow[] = [];

  // Both servers stay up for the whole run, and rounds visit every scenario in turn: load from
  // elsewhere on the machine then spreads over all scenarios instead of skewing one comparison.
  const servers: Partial<Record<Scenario['server'], ChildServer>> = {};
  const runs = new Map<ScenarioId, ScenarioResult[]>();
  try {
    if (scenarios.some((s) => s.server === 'bare')) servers.bare = await startBareFastify();
    if (scenarios.some((s) => s.server === 'data-plane')) {
      servers['data-plane'] = await startDataPlane({ mode, databaseUrl: benchUrl, cursorSecret, poolSize: options.databasePoolSize, profileDir });
    }
    for (const server of Object.values(servers)) log(`${server.name} listening on ${server.url} (pid ${server.pid})`);
    for (let round = 1; round <= options.rounds; round++) {
      for (const scenario of scenarios) {
        const of = options.rounds > 1 ? ` (round ${round}/${options.rounds})` : '';
        log(`${scenario.label}${of}: ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured`);
        const { window, ...result } = await runScenario(scenario, servers[scenario.server]!, postmasterPid);
        describe(result);
        runs.set(scenario.id, [...(runs.get(scenario.id) ?? []), result]);
        if (scenario.server === 'data-plane') profiledWindows.push(window);
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
  const results = scenarios.map((s) => medianRun(runs.get(s.id)!));

  const report: RunReport = {
    startedAt,
    environment: {
      cpu: `${cpus()[0]?.model ?? 'unknown'} × ${CORES}`,
      'load average at start': loadavg()[0]!.toFixed(2),
      node: process.version,
      postgres: postgresServer!.version,
      wrk: wrkVersion(),
      'data plane': mode === 'dist' ? 'compiled (node dist/server.js)' : 'sources via tsx',
      'pool size': options.databasePoolSize,
      load: `${options.connections} connections, ${options.threads} threads, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per scenario${options.rounds > 1 ? `, ${options.rounds} rounds (median shown)` : ''}`,
      dataset: `${manifest.spec.raffles.toLocaleString('en-US')} raffles (${manifest.publicListedRaffles.toLocaleString('en-US')} listed), ${manifest.spec.bigRaffleEntries.toLocaleString('en-US')} entries in one raffle, seeded ${seededNow ? 'this run' : manifest.seededAt} in ${manifest.seedSeconds} s`,
    },
    dataset: { ...manifest },
    scenarios: results,
    verdicts: evaluateTargets(results),
    warnings: runWarnings(results, scenarios),
    profile: profileDir ? profileSummaryOf(profileDir, profiledWindows) : undefined,
  };
  const path = await writeReport(RESULTS_DIR, report);
  console.log(`\n${renderMarkdown(report)}`);
  log(`results written to ${path} (and a timestamped JSON beside it)`);
}

try {
  await main();
} finally {
  clearTimeout(watchdog);
  await adminSql.end({ timeout: 5 });
}
