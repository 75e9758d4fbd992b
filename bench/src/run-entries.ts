import { randomBytes } from 'node:crypto';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, insertWorkspace, type Database } from '@raffle/db';
import { createRaffle, publishRaffle, SEED } from '@raffle/domain';
import { CORES, cpuBetween, parentPid, snapshotCpu } from './cpu.js';
import { DROP_SCENARIOS, renderDrops, runDropScenario, type DropRun, type DropScenarioId, type RushGates } from './drop-scenarios.js';
import { startGateRush } from './gate-rush.js';
import { GATE_CHAIN, prepareTokenGate, type TokenGate } from './token-gate.js';
import { ensureEntrantKeys, type EntrantKeys } from './entrant-keys.js';
import { removeBenchRaffles } from './bench-raffles.js';

import { readEntryLoadOptions } from './options.js';
import { monotonicNowUs, profileSummaryOf, type MonotonicWindow } from './profile-summary.js';
import { writeResultFiles } from './report.js';
import { ensureDataset, type Manifest } from './seed.js';
import { prepareDataPlane, startDataPlane, startDurableWriteServer, type ChildServer } from './servers.js';
import { startWrk, wrkVersion, type WrkResult } from './wrk.js';
import { HOW_TO_ENABLE, openStatementStats, type StatementStats } from './statement-stats.js';
import { renderStatementSummary, summariseStatements, type StatementSummary } from './statement-summary.js';
import { startStatsPostgres, type StatsPostgres } from './stats-postgres.js';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));
const ENTRIES_SCRIPT = fileURLToPath(new URL('./wrk-keys.lua', import.meta.url));
/** Every raffle this benchmark creates has a slug starting so; all of them are deleted again. */
const SLUG_PREFIX = 'bench-entries-';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => console.log(`[bench:entries] ${line}`);

type EntryScenarioId = 'entries-post' | 'entries-post-fcfs' | 'entries-post-one-ip';

type EntryScenario = {
  id: EntryScenarioId;
  label: string;
  mechanic: 'raffle' | 'fcfs';
  spots: number;
  /** `distinct`: each entrant from its own address; `one-ip`: all from one (every entry is then a duplicate of the others). */
  addresses: 'distinct' | 'one-ip';
};

const SCENARIOS: EntryScenario[] = [
  { id: 'entries-post', label: 'enter a raffle (mechanic raffle)', mechanic: 'raffle', spots: 100, addresses: 'distinct' },
  // The most spots a raffle may have: more than one run's entries, so it never fills (and closes) under load.
  { id: 'entries-post-fcfs', label: 'enter an FCFS raffle (100,000 spots)', mechanic: 'fcfs', spots: 100_000, addresses: 'distinct' },
  { id: 'entries-post-one-ip', label: 'enter a raffle, every entrant from one IP', mechanic: 'raffle', spots: 100, addresses: 'one-ip' },
];
const DEFAULT_SCENARIOS: Array<EntryScenarioId | DropScenarioId> = [
  'entries-post',
  'entries-post-fcfs',
  'drop-fcfs',
  'drop-raffle',
  'drop-token-gated',
  'drop-token-gated-beside-healthy',
  'drop-token-gated-beside-hostile',
];
/** Connections of the other workspace's rush beside a drop: a steady stream of its gates' reads, a small share of the data plane's time. */
const RUSH_CONNECTIONS = 8;

const options = readEntryLoadOptions(process.argv.slice(2), process.env);
const startedAt = new Date().toISOString();
const runTag = Date.now().toString(36);
/** Where --stats-postgres keeps its cluster between runs (the seeded dataset is what is worth keeping). */
const STATS_POSTGRES_DIR = join(tmpdir(), 'raffle-bench-stats-postgres', 'data');

const perScenarioSeconds = options.warmupSeconds + options.durationSeconds + 20;
const budgetSeconds = 20 * 60 + options.rounds * SCENARIOS.length * perScenarioSeconds + DROP_SCENARIOS.length * 300;
const watchdog = setTimeout(() => {
  console.error(`[bench:entries] watchdog: still running after ${budgetSeconds} s, stopping`);
  process.exit(3);
}, budgetSeconds * 1000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

type OpenRaffle = { id: string; slug: string };

/** A fresh open raffle, made the way the management API makes one: createRaffle, then publishRaffle. */
async function openRaffle(
  database: Database,
  manifest: Manifest,
  scenario: Pick<EntryScenario, 'label' | 'mechanic' | 'spots'> & { id: string },
  tag: string,
  gate?: TokenGate,
): Promise<OpenRaffle> {
  const kind = scenario.id.replace(/^entries-post-?/, '') || 'raffle';
  const draft = await createRaffle(database.db, {
    actor: SEED,
    workspaceId: manifest.workspaceId,
    body: {
      slug: `${SLUG_PREFIX}${runTag}-${kind}-${tag}`,
      title: `Benchmark: ${scenario.label}`,
      mechanic: scenario.mechanic,
      allocationType: 'allowlist_gtd',
      visibility: 'public',
      spots: scenario.spots,
      ...(gate
        ? {
            requirements: [
              { id: 'pass', type: 'token_balance', label: 'Holds a Nebula Pass', params: { chain: GATE_CHAIN, contract: gate.contracts.erc721, standard: 'erc721', min: '1' } },
            ],
          }
        : {}),
    },
  });
  const open = await publishRaffle(database.db, { actor: SEED, raffleId: draft.id, workspaceId: manifest.workspaceId });
  if (open.status !== 'open') throw new Error(`raffle ${open.slug} is ${open.status} after publishing, not open`);
  return { id: open.id, slug: open.slug };
}

/**
 * Another workspace (the rush's): its raffles are the benchmark's too (same slug prefix, removed
 * with them); the workspace goes with the run.
 */
async function rushWorkspace(database: Database): Promise<string> {
  const workspace = await insertWorkspace(database.db, { slug: `${SLUG_PREFIX}rush-${runTag}`, name: 'Benchmark: the rush beside a drop' });
  return workspace.id;
}

/**
 * Four open raffles of the rush's workspace, each gated on its own contract: the four hostile
 * tokens (huge return, gas burner, revert, garbage), or, for the healthy control, four ERC-1155
 * ids of the demo contract that nobody holds. Either way every rush entrant is refused (422), so
 * the two rushes ask the data plane the same work and differ only in what the gates answer.
 */
async function openRushRaffles(database: Database, workspaceId: string, gate: TokenGate, gates: RushGates): Promise<string[]> {
  const slugs: string[] = [];
  for (let k = 0; k < 4; k++) {
    const params =
      gates === 'hostile'
        ? { chain: GATE_CHAIN, contract: gate.hostile[k]!, standard: 'erc721', min: '1' }
        : { chain: GATE_CHAIN, contract: gate.contracts.erc1155, standard: 'erc1155', tokenId: String(900_000 + k), min: '1' };
    const draft = await createRaffle(database.db, {
      actor: SEED,
      workspaceId,
      body: {
        slug: `${SLUG_PREFIX}${runTag}-rush-${gates}-${k}`,
        title: `Benchmark: rush on a ${gates} gate`,
        mechanic: 'raffle',
        allocationType: 'allowlist_gtd',
        visibility: 'public',
        spots: 10,
        requirements: [{ id: 'gate', type: 'token_balance', label: `A ${gates} gate`, params }],
      },
    });
    slugs.push((await publishRaffle(database.db, { actor: SEED, raffleId: draft.id, workspaceId })).slug);
  }
  return slugs;
}

/** What the raffle holds after a run: every 201 must be one entry (and, FCFS, one win at the next position). */
async function raffleAfterRun(database: Database, raffleId: string) {
  const [row] = await database.sql<{ entries: number; flagged: number; wins: number; positions: number; lastPosition: number | null }[]>`
    select
      (select count(*)::int from entries where raffle_id = ${raffleId}) as entries,
      (select count(*)::int from entries where raffle_id = ${raffleId} and duplicate_flags ? 'ipReuse') as flagged,
      count(*)::int as wins, count(distinct position)::int as positions, max(position) as "lastPosition"
    from wins where raffle_id = ${raffleId}`;
  return row!;
}

/** The ceiling's table (durable-write-server.ts inserts into it): one row per request, with a key and its index, and nothing else. */
const DURABLE_WRITES_TABLE = 'bench_durable_writes';

async function createDurableWritesTable(database: Database): Promise<void> {
  const { sql } = database;
  await sql`drop table if exists ${sql(DURABLE_WRITES_TABLE)}`;
  await sql`create table ${sql(DURABLE_WRITES_TABLE)} (
    id bigint generated always as identity primary key, entrant text not null, created_at timestamptz not null default now())`;
}

async function dropDurableWritesTable(database: Database): Promise<void> {
  await database.sql`drop table if exists ${database.sql(DURABLE_WRITES_TABLE)}`;
}

async function probe(url: string, key: string): Promise<string> {
  const enter = () => fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  const first = await enter();
  const firstBody = (await first.json().catch(() => null)) as { id?: string; code?: string } | null;
  if (first.status !== 201) throw new Error(`POST ${url}: expected 201, got ${first.status}: ${JSON.stringify(firstBody).slice(0, 300)}`);
  const again = await enter();
  const againBody = (await again.json().catch(() => null)) as { code?: string } | null;
  if (again.status !== 409 || againBody?.code !== 'ALREADY_ENTERED') {
    throw new Error(`POST ${url} a second time: expected 409 ALREADY_ENTERED, got ${again.status}: ${JSON.stringify(againBody).slice(0, 300)}`);
  }
  return `201 then 409 ${againBody.code}`;
}

type EntryRun = {
  id: EntryScenarioId;
  label: string;
  round: number;
  raffle: OpenRaffle;
  wrk: WrkResult;
  created: number;
  entriesPerSecond: number;
  /** Responses other than 201, by status (socket errors and timeouts are in wrk.errors). */
  notCreated: Record<string, number>;
  database: Awaited<ReturnType<typeof raffleAfterRun>>;
  cpu: Record<string, number>;
  probe: string;
  /** Where Postgres spent the measured run (pg_stat_statements), when the server loads it. */
  statements: StatementSummary | null;
};

async function runScenario(
  scenario: EntryScenario,
  round: number,
  context: { database: Database; manifest: Manifest; server: ChildServer; keys: EntrantKeys; postmasterPid: number; statements: StatementStats },
): Promise<EntryRun & { window: MonotonicWindow }> {
  const { database, manifest, server, keys } = context;
  const urlOf = (raffle: OpenRaffle) => `${server.url}/api/v1/raffles/${raffle.slug}/entries`;
  const load = (raffle: OpenRaffle, durationSeconds: number) => ({
    url: urlOf(raffle),
    connections: options.connections,
    threads: options.threads,
    durationSeconds,
    script: { path: ENTRIES_SCRIPT, args: [keys.file, String(keys.usable), String(options.threads), scenario.addresses] },
  });

  // The warm-up enters a raffle of its own: the measured one starts empty, as a new raffle does.
  const warm = await openRaffle(database, manifest, scenario, `warm${round}`);
  const probed = await probe(urlOf(warm), keys.probeKey);
  await startWrk(load(warm, options.warmupSeconds)).result;

  const raffle = await openRaffle(database, manifest, scenario, `r${round}`);
  if (context.statements.available) await context.statements.reset();
  const fromUs = monotonicNowUs();
  const wrk = startWrk(load(raffle, options.durationSeconds));
  await sleep(500);
  const cpuBefore = snapshotCpu();
  await sleep(Math.max(500, options.durationSeconds * 1000 - 1000));
  const cpuAfter = snapshotCpu();
  const result = await wrk.result;
  const window = { fromUs, toUs: monotonicNowUs() };
  const statementRows = context.statements.available ? await context.statements.read() : null;

  const statuses = result.statuses ?? {};
  const created = statuses['201'] ?? 0;
  const notCreated = Object.fromEntries(Object.entries(statuses).filter(([status]) => status !== '201'));
  return {
    id: scenario.id,
    label: scenario.label,
    round,
    raffle,
    wrk: result,
    created,
    entriesPerSecond: Math.round((created / result.seconds) * 10) / 10,
    notCreated,
    database: await raffleAfterRun(database, raffle.id),
    cpu: cpuBetween(cpuBefore, cpuAfter, {
      server: (p) => p.pid === server.pid,
      postgres: (p) => p.pid === context.postmasterPid || p.ppid === context.postmasterPid,
      wrk: (p) => p.pid === wrk.pid,
    }),
    probe: probed,
    statements: statementRows ? summariseStatements(statementRows, { name: 'entry', count: created }) : null,
    window,
  };
}

/** What the machine commits at most: the same load against one autocommitted single-row INSERT per request. */
type CeilingRun = {
  round: number;
  wrk: WrkResult;
  writesPerSecond: number;
  notCreated: Record<string, number>;
  stored: number;
  cpu: Record<string, number>;
  statements: StatementSummary | null;
};

async function runCeiling(
  round: number,
  context: { database: Database; ceiling: ChildServer; keys: EntrantKeys; postmasterPid: number; statements: StatementStats },
): Promise<CeilingRun> {
  const { database, ceiling, keys } = context;
  const load = (durationSeconds: number) => ({
    url: `${ceiling.url}/`,
    connections: options.connections,
    threads: options.threads,
    durationSeconds,
    script: { path: ENTRIES_SCRIPT, args: [keys.file, String(keys.usable), String(options.threads), 'distinct'] },
  });
  await startWrk(load(options.warmupSeconds)).result;
  await database.sql`truncate ${database.sql(DURABLE_WRITES_TABLE)}`;
  if (context.statements.available) await context.statements.reset();
  const wrk = startWrk(load(options.durationSeconds));
  await sleep(500);
  const cpuBefore = snapshotCpu();
  await sleep(Math.max(500, options.durationSeconds * 1000 - 1000));
  const cpuAfter = snapshotCpu();
  const result = await wrk.result;
  const statementRows = context.statements.available ? await context.statements.read() : null;
  const statuses = result.statuses ?? {};
  const created = statuses['201'] ?? 0;
  const [row] = await database.sql<{ n: number }[]>`select count(*)::int as n from ${database.sql(DURABLE_WRITES_TABLE)}`;
  return {
    round,
    wrk: result,
    writesPerSecond: Math.round((created / result.seconds) * 10) / 10,
    notCreated: Object.fromEntries(Object.entries(statuses).filter(([status]) => status !== '201')),
    stored: row!.n,
    cpu: cpuBetween(cpuBefore, cpuAfter, {
      server: (p) => p.pid === ceiling.pid,
      postgres: (p) => p.pid === context.postmasterPid || p.ppid === context.postmasterPid,
      wrk: (p) => p.pid === wrk.pid,
    }),
    statements: statementRows ? summariseStatements(statementRows, { name: 'write', count: created }) : null,
  };
}

function medianRun(runs: EntryRun[]): EntryRun & { rounds?: Array<Pick<EntryRun, 'entriesPerSecond'> & { p50: number; p99: number }> } {
  const sorted = [...runs].sort((a, b) => a.entriesPerSecond - b.entriesPerSecond);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  if (runs.length === 1) return median;
  return { ...median, rounds: runs.map((r) => ({ entriesPerSecond: r.entriesPerSecond, p50: r.wrk.latencyMs.p50, p99: r.wrk.latencyMs.p99 })) };
}

/** Every request must be a 201 backed by one stored entry; anything else makes the figures suspect. */
function runWarnings(runs: EntryRun[], scenarios: EntryScenario[]): string[] {
  const warnings: string[] = [];
  for (const run of runs) {
    const scenario = scenarios.find((s) => s.id === run.id)!;
    const of = `${run.label} (round ${run.round})`;
    const { connect, read, write, timeout } = run.wrk.errors;
    if (connect + read + write + timeout > 0) warnings.push(`${of}: socket errors or timeouts ${JSON.stringify(run.wrk.errors)}`);
    for (const [status, n] of Object.entries(run.notCreated)) {
      warnings.push(`${of}: ${n} responses ${status}, e.g. ${run.wrk.samples?.[status] ?? '(no body)'}`);
    }
    if (run.wrk.keysWrapped) warnings.push(`${of}: the ${options.entrantKeys} keys ran out ${run.wrk.keysWrapped} times (--keys); repeats answer 409`);
    // wrk stops with up to one request per connection in flight: those may commit without being counted.
    const uncounted = run.database.entries - run.created;
    if (uncounted < 0 || uncounted > options.connections) {
      warnings.push(`${of}: ${run.created} responses 201 but ${run.database.entries} entries stored`);
    }
    if (scenario.mechanic === 'fcfs') {
      const { wins, positions, lastPosition } = run.database;
      if (wins !== run.database.entries || positions !== wins || (lastPosition ?? 0) !== wins) {
        warnings.push(`${of}: ${run.database.entries} entries but ${wins} wins over ${positions} distinct positions up to ${lastPosition}`);
      }
      if (run.created >= scenario.spots) warnings.push(`${of}: the raffle filled its ${scenario.spots} spots; later requests measured RAFFLE_FULL`);
    }
    if (run.cpu.other !== undefined && run.cpu.other > 25) {
      warnings.push(`${of}: ${run.cpu.other}% of a core went to processes outside the benchmark (other load on the machine)`);
    }
  }
  return warnings;
}

type EntryReport = {
  startedAt: string;
  environment: Record<string, string | number>;
  /** The durable-write ceiling: the median round, and every round. */
  ceiling: CeilingRun;
  ceilingRuns: CeilingRun[];
  scenarios: ReturnType<typeof medianRun>[];
  runs: EntryRun[];
  drops: DropRun[];
  warnings: string[];
  profile?: string;
  /** Why per-statement costs are missing, when they are. */
  statementsUnavailable?: string;
};

/** The issue's targets, as a share of the durable-write ceiling measured in the same run. */
const TARGETS: Partial<Record<EntryScenarioId, { ofCeiling: number; p99Ms: number }>> = {
  'entries-post': { ofCeiling: 0.35, p99Ms: 150 },
  'entries-post-fcfs': { ofCeiling: 0.2, p99Ms: 250 },
};

const ofCeiling = (report: EntryReport, perSecond: number) => (report.ceiling.writesPerSecond > 0 ? perSecond / report.ceiling.writesPerSecond : 0);

function renderTargets(report: EntryReport): string[] {
  const lines = report.scenarios.flatMap((r) => {
    const target = TARGETS[r.id];
    if (!target) return [];
    const share = ofCeiling(report, r.entriesPerSecond);
    const met = share >= target.ofCeiling && r.wrk.latencyMs.p99 < target.p99Ms;
    return [
      `| ${r.label}: ≥ ${target.ofCeiling * 100}% of the ceiling, p99 < ${target.p99Ms} ms | ${(share * 100).toFixed(1)}%, p99 ${r.wrk.latencyMs.p99.toFixed(1)} ms | ${met ? 'yes' : '**no**'} |`,
    ];
  });
  return lines.length ? ['', '| Target (issue 13) | Measured | Met |', '|---|---|---|', ...lines] : [];
}

/** Where each scenario's Postgres time went, the ceiling's single INSERT first as the baseline. */
function renderStatements(report: EntryReport): string[] {
  if (report.statementsUnavailable) return ['', `Per-statement costs: not measured (${report.statementsUnavailable}); ${HOW_TO_ENABLE}.`];
  const sections = [
    ...(report.ceiling.statements ? [{ title: 'durable-write ceiling (the baseline)', summary: report.ceiling.statements }] : []),
    ...report.scenarios.flatMap((r) => (r.statements ? [{ title: r.label, summary: r.statements }] : [])),
  ];
  if (!sections.length) return [];
  return [
    '',
    '## Where Postgres spent its time (pg_stat_statements)',
    '',
    'Each scenario\'s measured run, reset before it and read after it: execution time inside Postgres, lock waits included,',
    'planning not. The commit itself (its WAL flush) runs after the statement that asks for it has ended, so it is in no',
    'statement\'s time, for COMMIT as for the ceiling\'s autocommitted INSERT. Share is of the top-level statements\' total;',
    '"↳" marks a statement run inside a function, whose time its caller\'s also holds.',
    ...sections.flatMap(({ title, summary }) => ['', ...renderStatementSummary(title, summary)]),
  ];
}

function renderMarkdown(report: EntryReport): string {
  const env = Object.entries(report.environment)
    .map(([k, v]) => `${k}: ${v}`)
    .join(' · ');
  const number = (n: number) => Math.round(n).toLocaleString('en-US');
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
  const { ceiling } = report;
  const ceilingSpread =
    report.ceilingRuns.length > 1
      ? ` (${number(Math.min(...report.ceilingRuns.map((x) => x.writesPerSecond)))}–${number(Math.max(...report.ceilingRuns.map((x) => x.writesPerSecond)))})`
      : '';
  const ceilingRow = `| durable-write ceiling (one autocommitted INSERT per request) | ${number(ceiling.writesPerSecond)}${ceilingSpread} | 100% | ${ceiling.wrk.latencyMs.p50.toFixed(2)} | ${ceiling.wrk.latencyMs.p99.toFixed(2)} | ${ceiling.wrk.latencyMs.max.toFixed(0)} | ${number(ceiling.wrk.statuses?.['201'] ?? 0)} | ${Object.entries(ceiling.notCreated).map(([status, n]) => `${n} × ${status}`).join(', ') || '0'} | ${number(ceiling.stored)} | ${ceiling.cpu.server ?? 0} / ${ceiling.cpu.postgres ?? 0} / ${ceiling.cpu.wrk ?? 0} / ${ceiling.cpu.other ?? 0} |`;
  const rows = report.scenarios.map((r) => {
    const spread = r.rounds ? ` (${number(Math.min(...r.rounds.map((x) => x.entriesPerSecond)))}–${number(Math.max(...r.rounds.map((x) => x.entriesPerSecond)))})` : '';
    const others = Object.entries(r.notCreated).map(([status, n]) => `${n} × ${status}`).join(', ') || '0';
    const { latencyMs } = r.wrk;
    const cpu = `${r.cpu.server ?? 0} / ${r.cpu.postgres ?? 0} / ${r.cpu.wrk ?? 0} / ${r.cpu.other ?? 0}`;
    return `| ${r.label} | ${number(r.entriesPerSecond)}${spread} | ${percent(ofCeiling(report, r.entriesPerSecond))} | ${latencyMs.p50.toFixed(2)} | ${latencyMs.p99.toFixed(2)} | ${latencyMs.max.toFixed(0)} | ${number(r.created)} | ${others} | ${number(r.database.entries)} | ${cpu} |`;
  });
  return [
    `# Entering raffles under load, ${report.startedAt}`,
    '',
    env,
    '',
    '| Scenario | entries/s (201s) | of the ceiling | p50 ms | p99 ms | max ms | 201s | other statuses | entries stored | CPU % of a core: server / postgres / wrk / other |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ceilingRow,
    ...rows,
    ...renderTargets(report),
    ...renderDrops(report.drops),
    ...renderStatements(report),
    '',
    'The durable-write ceiling is a bare Fastify route committing one single-row INSERT per request (autocommit, a prepared',
    'statement through postgres.js) on the same database with the same pool size and the same load: the most this machine',
    'commits durably. Every entering figure is also given as a share of it, which means the same on any machine.',
    '',
    'Each measured run enters a raffle created and published just before it (createRaffle + publishRaffle), public and without',
    'requirements; every request is a different entrant (its own personal key, and its own X-Forwarded-For address unless the',
    'scenario says one IP). A warm-up against another fresh raffle precedes it. Latencies cover every response.',
    ...(report.scenarios.some((r) => r.rounds) ? ["entries/s with several rounds: the median round (min–max of all rounds); its latencies are that round's."] : []),
    ...(report.warnings.length ? ['', '## Warnings', '', ...report.warnings.map((w) => `- ${w}`)] : []),
    ...(report.profile ? ['', '## Profile', '', report.profile] : []),
    '',
  ].join('\n');
}

async function main() {
  const only = options.only ?? DEFAULT_SCENARIOS;
  const known: string[] = [...SCENARIOS, ...DROP_SCENARIOS].map((s) => s.id);
  const unknown = only.filter((id) => !known.includes(id));
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${known.join(', ')}`);
  const scenarios = SCENARIOS.filter((s) => only.includes(s.id));
  const dropScenarios = DROP_SCENARIOS.filter((s) => only.includes(s.id));

  let statsPostgres: StatsPostgres | undefined;
  if (options.statsPostgres) {
    statsPostgres = await startStatsPostgres({ dataDir: STATS_POSTGRES_DIR, referenceUrl: `${options.postgresUrl}/postgres`, log });
    log(`stats Postgres ${statsPostgres.version} (pid ${statsPostgres.pid}) on ${statsPostgres.url}, data in ${STATS_POSTGRES_DIR}`);
  }
  try {
    await measure(scenarios, dropScenarios, statsPostgres?.url ?? options.postgresUrl, statsPostgres);
  } finally {
    await statsPostgres?.stop();
  }
}

async function measure(
  scenarios: EntryScenario[],
  dropScenarios: typeof DROP_SCENARIOS,
  postgresUrl: string,
  statsPostgres: StatsPostgres | undefined,
) {
  const benchUrl = `${postgresUrl}/${options.databaseName}`;
  const { manifest } = await ensureDataset(
    { adminUrl: `${postgresUrl}/postgres`, benchUrl, databaseName: options.databaseName },
    options.spec,
    { reseed: options.reseed, log },
  );
  const keys = await ensureEntrantKeys(benchUrl, manifest, join(RESULTS_DIR, 'entrant-keys.txt'), options.entrantKeys, log);
  const mode = await prepareDataPlane(options.mode, log);
  log(`data plane: running ${mode === 'dist' ? 'the compiled build (node dist/server.js)' : 'the sources through tsx'}`);

  const database = createDatabase({ url: benchUrl, max: 2, applicationName: 'bench-entries' });
  const statements = await openStatementStats(`${postgresUrl}/postgres`, options.databaseName);
  if (!statements.available) log(`per-statement costs: not measured (${statements.reason}); ${HOW_TO_ENABLE}`);
  const profileDir = options.profile ? join(RESULTS_DIR, 'profiles', `entries-${startedAt.replace(/[:.]/g, '-')}`) : undefined;
  const windows: MonotonicWindow[] = [];
  const runs: EntryRun[] = [];
  const ceilingRuns: CeilingRun[] = [];
  const drops: DropRun[] = [];
  let server: ChildServer | undefined;
  let ceiling: ChildServer | undefined;
  let gate: TokenGate | undefined;
  try {
    const leftovers = await removeBenchRaffles(database, manifest, SLUG_PREFIX);
    if (leftovers.raffles + leftovers.events) log(`removed what an earlier run left behind: ${leftovers.raffles} raffles, ${leftovers.events} events`);
    const [backend] = await database.sql<{ pid: number; version: string }[]>`
      select pg_backend_pid() as pid, current_setting('server_version') as version`;
    // The token-gated drop's chain, before the data plane: it reads CHAIN_RPC_URLS at start.
    if (dropScenarios.some((s) => s.gated)) gate = await prepareTokenGate(database, manifest, Math.min(options.dropEntrants, keys.usable), log);
    server = await startDataPlane({
      mode,
      env: gate?.env,
      databaseUrl: benchUrl,
      cursorSecret: randomBytes(32).toString('hex'),
      poolSize: options.databasePoolSize,
      profileDir,
      trustProxy: true,
    });
    log(`${server.name} listening on ${server.url} (pid ${server.pid})`);
    const context = { database, manifest, server, keys, postmasterPid: parentPid(backend!.pid), statements };
    await createDurableWritesTable(database);
    ceiling = await startDurableWriteServer({ databaseUrl: benchUrl, poolSize: options.databasePoolSize });
    for (let round = 1; round <= options.rounds; round++) {
      log(`durable-write ceiling${options.rounds > 1 ? ` (round ${round}/${options.rounds})` : ''}: ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured`);
      const ceilingRun = await runCeiling(round, { database, ceiling, keys, postmasterPid: context.postmasterPid, statements });
      log(`  ${Math.round(ceilingRun.writesPerSecond)} writes/s, p50 ${ceilingRun.wrk.latencyMs.p50} ms, p99 ${ceilingRun.wrk.latencyMs.p99} ms; CPU (% of a core) server ${ceilingRun.cpu.server}, postgres ${ceilingRun.cpu.postgres}`);
      ceilingRuns.push(ceilingRun);
      for (const scenario of scenarios) {
        const of = options.rounds > 1 ? ` (round ${round}/${options.rounds})` : '';
        log(`${scenario.label}${of}: ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured`);
        const { window, ...run } = await runScenario(scenario, round, context);
        const others = Object.entries(run.notCreated).map(([status, n]) => `${n} × ${status}`).join(', ') || 'none';
        log(
          `  ${Math.round(run.entriesPerSecond)} entries/s, p50 ${run.wrk.latencyMs.p50} ms, p99 ${run.wrk.latencyMs.p99} ms; other statuses: ${others}; CPU (% of a core) server ${run.cpu.server}, postgres ${run.cpu.postgres}, wrk ${run.cpu.wrk}, other ${run.cpu.other}`,
        );
        runs.push(run);
        windows.push(window);
      }
    }
    const rushWorkspaceId = dropScenarios.some((s) => s.beside) ? await rushWorkspace(database) : undefined;
    for (const scenario of dropScenarios) {
      log(`${scenario.label}: ${options.dropEntrants.toLocaleString('en-US')} entrants over ${options.dropConnections} connections`);
      const entrants = Math.min(options.dropEntrants, keys.usable);
      const startRush = async (gates: RushGates) =>
        startGateRush({ origin: server!.url, keysFile: keys.file, entrants, connections: RUSH_CONNECTIONS, slugs: await openRushRaffles(database, rushWorkspaceId!, gate!, gates) });
      const drop = await runDropScenario(
        scenario,
        { database, origin: server.url, keysFile: keys.file, entrants, connections: options.dropConnections, gate, startRush },
        (s) => openRaffle(database, manifest, s, 'drop', s.gated ? gate : undefined),
      );
      if (drop.rush) log(`  the rush beside it (${drop.rush.gates} gates): ${drop.rush.sent} sent, ${JSON.stringify(drop.rush.statuses)}, ${drop.rush.unanswered} unanswered`);
      if (drop.rpc) log(`  the chain: ${drop.rpc.requests} RPC requests (${drop.rpc.calls} calls), ${drop.rpc.requestsPerEntry.toFixed(4)} requests per entrant`);
      log(`  answered all in ${drop.result.secondsToAnswerAll} s, p50 ${drop.result.latencyMs.p50} ms, p99 ${drop.result.latencyMs.p99} ms; ${JSON.stringify(drop.result.statuses)}; ${drop.check.entriesStored} entries, ${drop.check.wins} wins`);
      drops.push(drop);
      // A 5xx is a defect: show what the data plane logged for it.
      const failed = server.output().split('\n').filter((line) => /"level":(50|60)/.test(line));
      for (const line of failed.slice(-5)) log(`  data plane error: ${line.slice(0, 2000)}`);
    }
    await server.stop();
    await ceiling.stop();
    const environment = {
      cpu: `${cpus()[0]?.model ?? 'unknown'} × ${CORES}`,
      'load average at start': loadavg()[0]!.toFixed(2),
      node: process.version,
      postgres: statsPostgres
        ? `${backend!.version}, started by the benchmark with pg_stat_statements (settings copied from ${options.postgresUrl}: ${Object.keys(statsPostgres.copiedSettings).length})`
        : backend!.version,
      wrk: wrkVersion(),
      'data plane': mode === 'dist' ? 'compiled (node dist/server.js)' : 'sources via tsx',
      'pool size': options.databasePoolSize,
      load: `${options.connections} connections, ${options.threads} threads, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per scenario${options.rounds > 1 ? `, ${options.rounds} rounds (median shown)` : ''}`,
      entrants: `${(keys.usable + 1).toLocaleString('en-US')} users with a personal key (entries:write)`,
    };
    const report: EntryReport = {
      startedAt,
      environment,
      ceiling: [...ceilingRuns].sort((a, b) => a.writesPerSecond - b.writesPerSecond)[Math.floor((ceilingRuns.length - 1) / 2)]!,
      ceilingRuns,
      scenarios: scenarios.map((s) => medianRun(runs.filter((r) => r.id === s.id))),
      runs,
      drops,
      warnings: runWarnings(runs, scenarios),
      profile: profileDir ? profileSummaryOf(profileDir, windows) : undefined,
      ...(statements.available ? {} : { statementsUnavailable: statements.reason }),
    };
    const markdown = renderMarkdown(report);
    const path = await writeResultFiles(RESULTS_DIR, 'entries', startedAt, report, markdown);
    console.log(`\n${markdown}`);
    log(`results written to ${path} (and a timestamped JSON beside it)`);
  } finally {
    await server?.stop();
    await ceiling?.stop();
    await gate?.stop().catch((error: Error) => log(`could not stop the token gate's chain: ${error.message}`));
    await dropDurableWritesTable(database).catch((error: Error) => log(`could not drop ${DURABLE_WRITES_TABLE}: ${error.message}`));
    const removed = await removeBenchRaffles(database, manifest, SLUG_PREFIX).catch((error: Error) => {
      log(`could not remove the benchmark's raffles: ${error.message}`);
      return null;
    });
    if (removed) log(`removed the ${removed.raffles} raffles this run created (with their entries and wins) and ${removed.events} events`);
    await database.sql`delete from workspaces where slug like ${`${SLUG_PREFIX}rush-%`}`.catch((error: Error) => log(`could not remove the rush's workspace: ${error.message}`));
    await statements.close();
    await database.close();
  }
}

try {
  await main();
} finally {
  clearTimeout(watchdog);
}
