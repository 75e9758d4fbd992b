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
import { describeRouting, parseReadCounts, readRoutingBetween, readRoutingProblem, STALENESS_HEADER, stalenessOf } from './read-routing.js';
import { startReplicaPair, type ReplicaPair } from './replica-pair.js';
import {
  evaluateTargets,
  renderMarkdown,
  runWarnings,
  writeReport,
  type RunReport,
  type ScenarioResult,
} from './report.js';
import { buildScenarios, scenarioKey, withReplicaReads, type Scenario } from './scenarios.js';
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
// 20 minutes for seeding, building and copying onto the replica pair, then at most 7 scenarios per round (11 with --replica).
const budgetSeconds = 20 * 60 + options.rounds * ((options.replica ? 11 : 7) * perScenarioSeconds + (2 * STATS_SETTLE_MS) / 1000);
const watchdog = setTimeout(() => {
  console.error(`[bench] watchdog: still running after ${budgetSeconds} s, stopping`);
  process.exit(3);
}, budgetSeconds * 1000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

const adminSql = postgres(`${options.postgresUrl}/postgres`, { max: 1, onnotice: () => {} });
const benchUrl = `${options.postgresUrl}/${options.databaseName}`;

/** A Postgres server the run measures: its counters (through its admin database) and its processes' CPU. */
type MeasuredServer = { sql: postgres.Sql; postmasterPid: number };
/** The server the data plane writes to, and with --replica the streaming replica its routed reads may go to. */
type MeasuredDatabases = { primary: MeasuredServer; replica?: MeasuredServer };

/** One scenario: a probe request, a discarded warm-up, then the measured run with CPU and database counters around it. */
async function runScenario(
  scenario: Scenario,
  server: ChildServer,
  databases: MeasuredDatabases,
): Promise<ScenarioResult & { window: MonotonicWindow }> {
  const url = server.url + scenario.path;
  const response = await fetch(url, { headers: scenario.headers });
  const body = await response.json().catch(() => null);
  const problem = scenario.check(response.status, body);
  if (problem) throw new Error(`${scenario.label}: ${problem}`);
  const staleness = stalenessOf(response.headers);
  const probe =
    (scenario.expectsErrors ? `${response.status} ${(body as { code?: string }).code}` : `${response.status}`) +
    (staleness === null ? '' : `, ${STALENESS_HEADER}: ${staleness}`);

  const load = { url, headers: scenario.headers, connections: options.connections, threads: options.threads };
  await startWrk({ ...load, durationSeconds: options.warmupSeconds }).result;

  const measuresDatabase = scenario.server === 'data-plane';
  if (scenario.exactDatabaseDelta) {
    log(`  waiting ${STATS_SETTLE_MS / 1000} s for Postgres statistics to settle`);
    await sleep(STATS_SETTLE_MS);
  }
  const activity = (at: MeasuredServer | undefined) => (measuresDatabase && at ? readDbActivity(at.sql, options.databaseName) : null);
  // The data plane's own count of where its reads went; null without read routing.
  const readCounts = async () => (measuresDatabase ? parseReadCounts(await (await fetch(`${server.url}/metrics`)).text()) : null);
  const dbBefore: DbActivity | null = await activity(databases.primary);
  const replicaBefore = await activity(databases.replica);
  const readsBefore = await readCounts();

  const fromUs = monotonicNowUs();
  const wrk = startWrk({ ...load, durationSeconds: options.durationSeconds });
  // CPU is sampled inside the run (wrk's process is gone once it ends), skipping its first and last half second.
  await sleep(500);
  const cpuBefore = snapshotCpu();
  await sleep(Math.max(500, options.durationSeconds * 1000 - 1000));
  const cpuAfter = snapshotCpu();
  const result = await wrk.result;
  const window = { fromUs, toUs: monotonicNowUs() };
  const readsAfter = await readCounts();

  if (scenario.exactDatabaseDelta) await sleep(STATS_SETTLE_MS);
  const dbAfter = await activity(databases.primary);
  const replicaAfter = await activity(databases.replica);

  const serverOf = (postmasterPid: number) => (p: { pid: number; ppid: number }) => p.pid === postmasterPid || p.ppid === postmasterPid;
  const cpu = cpuBetween(cpuBefore, cpuAfter, {
    server: (p) => p.pid === server.pid,
    postgres: serverOf(databases.primary.postmasterPid),
    ...(databases.replica ? { replica: serverOf(databases.replica.postmasterPid) } : {}),
    wrk: (p) => p.pid === wrk.pid,
  });
  const routing = readRoutingBetween(readsBefore, readsAfter);
  const tracksRouting = measuresDatabase && (routing.exported || databases.replica !== undefined);
  const routingProblem = tracksRouting ? readRoutingProblem(routing, scenario.reads ?? 'primary') : null;
  return {
    id: scenario.id,
    label: scenario.label,
    ...(scenario.reads ? { reads: scenario.reads } : {}),
    wrk: result,
    cpu,
    database: dbBefore && dbAfter ? { delta: activityDelta(dbBefore, dbAfter), exact: scenario.exactDatabaseDelta ?? false } : null,
    ...(replicaBefore && replicaAfter ? { replicaDatabase: activityDelta(replicaBefore, replicaAfter) } : {}),
    ...(tracksRouting ? { routing } : {}),
    ...(routingProblem ? { routingProblem } : {}),
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
  const replica = result.cpu.replica === undefined ? '' : `, replica ${result.cpu.replica}`;
  log(
    `  ${Math.round(requestsPerSecond)} req/s, p50 ${latencyMs.p50} ms, p99 ${latencyMs.p99} ms; CPU (% of a core) server ${result.cpu.server}, postgres ${result.cpu.postgres}${replica}, wrk ${result.cpu.wrk}, other ${result.cpu.other}`,
  );
  if (result.routing) log(`  reads: ${describeRouting(result.routing)}`);
  if (result.routingProblem) console.error(`[bench] ROUTING FAILED: ${result.label}: ${result.routingProblem}`);
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
  const cursorSecret = randomBytes(32).toString('hex');
  const selected = selectScenarios(buildScenarios(manifest, keys, cursorSecret), options.only);
  const scenarios = options.replica ? withReplicaReads(selected) : selected;
  if (options.replica && !scenarios.some((s) => s.reads)) throw new Error(`--replica: none of the scenarios run (${options.only?.join(', ')}) reads`);

  // --replica: the whole run moves onto a pair of the run's own, holding a copy of the dataset (the keys included).
  const pair: ReplicaPair | null = options.replica ? await startReplicaPair({ url: options.postgresUrl, databaseName: options.databaseName }, log) : null;

  const pairSql = pair ? { primary: postgres(`${pair.primary.url}/postgres`, { max: 1, onnotice: () => {} }), replica: postgres(`${pair.replica.url}/postgres`, { max: 1, onnotice: () => {} }) } : null;
  const [postgresServer] = await adminSql<{ pid: number; version: string }[]>`
    select pg_backend_pid() as pid, current_setting('server_version') as version`;
  const databases: MeasuredDatabases =
    pair && pairSql
      ? { primary: { sql: pairSql.primary, postmasterPid: pair.primary.postmasterPid }, replica: { sql: pairSql.replica, postmasterPid: pair.replica.postmasterPid } }
      : { primary: { sql: adminSql, postmasterPid: parentPid(postgresServer!.pid) } };
  const dataPlaneUrl = pair ? `${pair.primary.url}/${options.databaseName}` : benchUrl;

  const profileDir = options.profile ? join(RESULTS_DIR, 'profiles', startedAt.replace(/[:.]/g, '-')) : undefined;
  const profiledWindows: MonotonicWindow[] = [];

  // Every server stays up for the whole run, and rounds visit every scenario in turn: load from
  // elsewhere on the machine then spreads over all scenarios instead of skewing one comparison.
  const serverKey = (s: Scenario) => (s.reads ? `${s.server}@${s.reads}` : s.server);
  const servers = new Map<string, ChildServer>();
  const runs = new Map<string, ScenarioResult[]>();
  try {
    if (scenarios.some((s) => s.server === 'bare')) servers.set('bare', await startBareFastify());
    const dataPlane = { mode, databaseUrl: dataPlaneUrl, cursorSecret, poolSize: options.databasePoolSize };
    if (scenarios.some((s) => serverKey(s) === 'data-plane')) {
      servers.set('data-plane', await startDataPlane({ ...dataPlane, name: pair ? 'data plane (primary only)' : 'data plane', profileDir }));
    }
    if (pair && scenarios.some((s) => s.reads === 'replica')) {
      const readDatabaseUrl = `${pair.replica.url}/${options.databaseName}`;
      servers.set('data-plane@replica', await startDataPlane({ ...dataPlane, name: 'data plane (reads on the replica)', readDatabaseUrl }));
    }
    for (const server of servers.values()) log(`${server.name} listening on ${server.url} (pid ${server.pid})`);
    for (let round = 1; round <= options.rounds; round++) {
      for (const scenario of scenarios) {
        const of = options.rounds > 1 ? ` (round ${round}/${options.rounds})` : '';
        log(`${scenario.label}${of}: ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured`);
        const { window, ...result } = await runScenario(scenario, servers.get(serverKey(scenario))!, databases);
        describe(result);
        runs.set(scenarioKey(scenario), [...(runs.get(scenarioKey(scenario)) ?? []), result]);
        if (serverKey(scenario) === 'data-plane') profiledWindows.push(window);
      }
    }
  } finally {
    await Promise.all([...servers.values()].map((server) => server.stop()));
    if (pairSql) await Promise.all([pairSql.primary.end({ timeout: 5 }), pairSql.replica.end({ timeout: 5 })]);
    await pair?.stop();
  }
  const results = scenarios.map((s) => medianRun(runs.get(scenarioKey(s))!));

  const report: RunReport = {
    startedAt,
    environment: {
      cpu: `${cpus()[0]?.model ?? 'unknown'} × ${CORES}`,
      'load average at start': loadavg()[0]!.toFixed(2),
      node: process.version,
      postgres: pair
        ? `${pair.version}, a primary + streaming replica of the run's own (the test kit's pair: fsync off, shared_buffers 64MB)`
        : postgresServer!.version,
      ...(pair
        ? { 'replica pair': `dataset copied from ${options.databaseName} on ${options.postgresUrl}: ${Object.entries(pair.phases).map(([phase, seconds]) => `${phase} ${seconds} s`).join(', ')}` }
        : {}),
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

  // A "reads on the replica" figure whose reads stayed on the primary would compare nothing: the run fails.
  const misrouted = results.filter((r) => r.routingProblem);
  if (misrouted.length) {
    for (const r of misrouted) console.error(`[bench] FAILED: ${r.label}: ${r.routingProblem}`);
    process.exitCode = 1;
  }
}

try {
  await main();
} finally {
  clearTimeout(watchdog);
  await adminSql.end({ timeout: 5 });
}
