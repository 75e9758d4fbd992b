import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, insertWorkspace, newId, schema, type Database } from '@raffle/db';
import { CORES, cpuBetween, parentPid, snapshotCpu } from './cpu.js';
import { monotonicNowUs, profileSummaryOf, type MonotonicWindow } from './profile-summary.js';
import { writeResultFiles, type Verdict } from './report.js';
import { readWebhookOptions, type WebhookRunKind } from './webhook-options.js';
import { freshDatabase, prepareDispatcher, startDispatcher, startPrivateNats, startSinks, type Child, type Sinks } from './webhook-processes.js';
import type { Receipts } from './webhook-sink.js';
import { startPacedWriter, type PacedWriter } from './webhook-writer.js';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));
/** The issue's targets. */
const TARGET_DELIVERIES_PER_SECOND = 5000;
const TARGET_P99_MS = 500;
const TARGET_DEAD_P99_RATIO = 1.2;

const log = (line: string) => console.log(`[bench:webhooks] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const options = readWebhookOptions(process.argv.slice(2), process.env);
const startedAt = new Date().toISOString();
const loadAtStart = loadavg()[0]!;
let postgresVersion = 'unknown';

const perRunSeconds = options.warmupSeconds + options.durationSeconds + options.drainSeconds + 120;
const budgetSeconds = 10 * 60 + (options.steps ?? options.runs).length * perRunSeconds;
const watchdog = setTimeout(() => {
  console.error(`[bench:webhooks] watchdog: still running after ${budgetSeconds} s, stopping`);
  process.exit(3);
}, budgetSeconds * 1000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

type Latency = { count: number; p50: number; p95: number; p99: number; max: number };

export type WebhookRun = {
  kind: WebhookRunKind;
  label: string;
  healthyEndpoints: number;
  deadEndpoints: number;
  offeredEventsPerSecond: number;
  /** Events the writer committed during the measured window, per second. */
  committedEventsPerSecond: number;
  /** Receipts at the healthy endpoints during the measured window, per second. */
  deliveriesPerSecond: number;
  /** Commit → receipt at a healthy endpoint, for events committed in the measured window. */
  endToEndMs: Latency;
  perEndpointP99Ms: number[];
  events: number;
  /** Healthy (endpoint, event) pairs never received after the drain. */
  lost: number;
  duplicates: number;
  drainSeconds: number;
  /** Requests the dead endpoint accepted (and never answered). */
  deadRequests: number;
  /** TCP connections the healthy endpoints accepted over the whole run (keep-alive keeps this near the concurrency). */
  connections: number;
  deliveriesByStatus: Record<string, Record<string, number>>;
  attemptsByOutcome: Record<string, number>;
  /** e2e p50/p99 of the events committed in each second of the measured window (JSON only). */
  timeline: Array<{ second: number; events: number; p50: number; p99: number }>;
  /** Where an event's time went, from the rows' timestamps (events committed in the window, healthy endpoints). */
  stagesMs: Array<{ stage: string; p50: number; p99: number; max: number }>;
  writer: { maxInFlight: number; maxLagMs: number };
  cpu: Record<string, number>;
  /** CPU milliseconds each delivery cost the dispatcher and Postgres over the measured window. */
  cpuMsPerDelivery: { dispatcher: number; postgres: number };
  warnings: string[];
};

/** % of a core over the window, per delivery per second: ms of CPU per delivery. */
function cpuMsPerDelivery(cpu: Record<string, number>, deliveriesPerSecond: number): WebhookRun['cpuMsPerDelivery'] {
  const per = (percent: number | undefined) => (deliveriesPerSecond > 0 ? Math.round(((percent ?? 0) * 10 * 1000) / deliveriesPerSecond) / 1000 : 0);
  return { dispatcher: per(cpu.dispatcher), postgres: per(cpu.postgres) };
}

/** A step keeps up when the healthy endpoints received what was offered and the backlog drained at once. */
const keptUp = (r: WebhookRun) => r.deliveriesPerSecond >= r.offeredEventsPerSecond * r.healthyEndpoints * 0.98 && r.drainSeconds <= 5 && r.lost === 0;

function renderSteps(runs: WebhookRun[]): string[] {
  const sustainable = runs.filter(keptUp).sort((a, b) => b.offeredEventsPerSecond - a.offeredEventsPerSecond)[0];
  return [
    '',
    '## Offered rate, step by step',
    '',
    '| offered events/s | offered deliveries/s | delivered/s | e2e p50 ms | e2e p99 ms | drain s | kept up | CPU ms per delivery: dispatcher / postgres |',
    '|---:|---:|---:|---:|---:|---:|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.offeredEventsPerSecond} | ${r.offeredEventsPerSecond * r.healthyEndpoints} | ${r.deliveriesPerSecond} | ${r.endToEndMs.p50} | ${r.endToEndMs.p99} | ${r.drainSeconds} | ${keptUp(r) ? 'yes' : '**no**'} | ${r.cpuMsPerDelivery.dispatcher} / ${r.cpuMsPerDelivery.postgres} |`,
    ),
    '',
    sustainable
      ? `Highest offered rate kept up with: ${sustainable.offeredEventsPerSecond} events/s × ${sustainable.healthyEndpoints} endpoints = ${(sustainable.offeredEventsPerSecond * sustainable.healthyEndpoints).toLocaleString('en-US')} deliveries/s (received ≥ 98% of it in the window, drained within 5 s, none lost).`
      : 'No step kept up (received ≥ 98% of the offered deliveries in the window, drained within 5 s, none lost).',
  ];
}

function latencyOf(values: Float64Array): Latency {
  if (values.length === 0) return { count: 0, p50: NaN, p95: NaN, p99: NaN, max: NaN };
  const sorted = values.slice().sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const round = (n: number) => Math.round(n * 10) / 10;
  return { count: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(sorted[sorted.length - 1]!) };
}

async function registerEndpoints(database: Database, workspaceId: string, urls: string[]): Promise<string[]> {
  const now = new Date();
  const rows = urls.map((url) => ({
    id: newId('webhookEndpoint', now.getTime()),
    ownerKind: 'workspace' as const,
    workspaceId,
    url,
    eventTypes: ['raffle.published'],
    enabled: true,
    secret: `whsec_${randomBytes(32).toString('base64')}`,
    createdAt: now,
    updatedAt: now,
  }));
  if (rows.length > 0) await database.db.insert(schema.webhookEndpoints).values(rows);
  return rows.map((r) => r.id);
}

/** Every backend is a child of the postmaster: its CPU is Postgres's. */
async function postmasterOf(database: Database): Promise<number> {
  const [backend] = await database.sql<{ pid: number; version: string }[]>`select pg_backend_pid() as pid, current_setting('server_version') as version`;
  postgresVersion = backend!.version;
  return parentPid(backend!.pid);
}

/**
 * Waits until the healthy endpoints received every (endpoint, event) pair once, asking the sink:
 * counting succeeded deliveries in Postgres instead scanned the table four times a second and
 * took CPU from the very drain it timed.
 */
async function waitForDrain(sinks: Sinks, expected: number): Promise<number> {
  const started = Date.now();
  const deadline = started + options.drainSeconds * 1000;
  for (;;) {
    if ((await sinks.distinctReceived()) >= expected || Date.now() > deadline) return (Date.now() - started) / 1000;
    await sleep(250);
  }
}

async function runOnce(
  kind: WebhookRunKind,
  mode: 'dist' | 'tsx',
  profileDir: string | undefined,
  eventsPerSecond: number,
  stepped = false,
): Promise<{ run: WebhookRun; window: MonotonicWindow }> {
  const dead = kind === 'dead' ? 1 : 0;
  const label =
    (dead ? `${options.endpoints} healthy endpoints + 1 that never answers` : `${options.endpoints} healthy endpoints`) + (stepped ? `, ${eventsPerSecond} events/s` : '');
  const warnings: string[] = [];
  const db = await freshDatabase(options.postgresUrl, options.databaseName);
  let nats: (Child & { url: string }) | undefined;
  let sinks: Sinks | undefined;
  const dispatchers: Child[] = [];
  let writer: PacedWriter | undefined;
  const database = createDatabase({ url: db.url, max: 8, applicationName: 'bench-webhooks' });
  try {
    nats = await startPrivateNats(options.natsServer);
    sinks = await startSinks(options.endpoints, dead);
    const workspace = await insertWorkspace(database.db, { slug: `bench-webhooks-${Date.now().toString(36)}`, name: 'Webhook benchmark' });
    const healthyIds = await registerEndpoints(database, workspace.id, sinks.healthyUrls);
    const deadIds = await registerEndpoints(database, workspace.id, sinks.deadUrls);
    const tag = randomBytes(3).toString('hex');
    for (let i = 0; i < options.instances; i++) {
      dispatchers.push(
        await startDispatcher({
          mode,
          databaseUrl: db.url,
          natsUrl: nats.url,
          names: { stream: `BENCH_WEBHOOKS_${tag}`, subjectPrefix: `bench${tag}.events`, consumer: `bench-dispatcher-${tag}` },
          server: options.dispatcherServer,
          profileDir,
          env: options.dispatcherEnv,
        }),
      );
    }
    const postmasterPid = await postmasterOf(database);
    const dispatcherPids = new Set(dispatchers.map((d) => d.pid));
    log(`${label}: dispatcher pid ${[...dispatcherPids].join(', ')}, sink pid ${sinks.pid}, nats-server pid ${nats.pid}`);

    writer = startPacedWriter(database.db, workspace.id, { eventsPerSecond, perTransaction: options.eventsPerTransaction });
    log(`${label}: ${options.warmupSeconds} s warm-up, then ${options.durationSeconds} s measured at ${eventsPerSecond} events/s`);
    await sleep(options.warmupSeconds * 1000);
    const cpuBefore = snapshotCpu();
    const fromUs = monotonicNowUs();
    const from = performance.timeOrigin + performance.now();
    const firstBatch = writer.batches();
    await sleep(options.durationSeconds * 1000);
    const to = performance.timeOrigin + performance.now();
    const toUs = monotonicNowUs();
    const cpuAfter = snapshotCpu();
    const lastBatch = writer.batches();
    await writer.stop();
    const cpu = cpuBetween(cpuBefore, cpuAfter, {
      dispatcher: (p) => dispatcherPids.has(p.pid),
      postgres: (p) => p.pid === postmasterPid || p.ppid === postmasterPid,
      sink: (p) => p.pid === sinks!.pid,
      nats: (p) => p.pid === nats!.pid,
      writer: (p) => p.pid === process.pid,
    });

    const [counted] = await database.sql<{ n: number }[]>`select count(*)::int as n from event_outbox`;
    const events = counted!.n;
    const drainSeconds = await waitForDrain(sinks, events * healthyIds.length);
    const report = await sinks.report();
    const deliveriesByStatus: Record<string, Record<string, number>> = {};
    for (const row of await database.sql<{ endpoint: string; status: string; n: number }[]>`
      select case when endpoint_id = any(${deadIds}) then 'dead' else 'healthy' end as endpoint, status, count(*)::int as n
      from webhook_deliveries group by 1, 2 order by 1, 2`) {
      (deliveriesByStatus[row.endpoint] ??= {})[row.status] = row.n;
    }
    const attemptsByOutcome = Object.fromEntries(
      (
        await database.sql<{ outcome: string; n: number }[]>`
          select coalesce(failure_kind, 'success') as outcome, count(*)::int as n from webhook_delivery_attempts group by 1 order by 1`
      ).map((r) => [r.outcome, r.n]),
    );

    const windowStart = new Date(from).toISOString();
    const windowEnd = new Date(to).toISOString();
    const stagesMs = await database.sql<{ stage: string; p50: number; p99: number; max: number }[]>`
      with s as (
        select extract(epoch from o.published_at - o.created_at) * 1000 as relay,
               extract(epoch from d.created_at - o.published_at) * 1000 as fan_out,
               extract(epoch from d.last_attempt_at - d.created_at) * 1000 as send
        from event_outbox o join webhook_deliveries d on d.event_id = o.id
        where o.created_at >= ${windowStart}::timestamptz and o.created_at < ${windowEnd}::timestamptz and d.endpoint_id = any(${healthyIds}))
      select stage, round(percentile_cont(0.5) within group (order by ms)::numeric, 1)::float8 as p50,
             round(percentile_cont(0.99) within group (order by ms)::numeric, 1)::float8 as p99, round(max(ms)::numeric, 1)::float8 as max
      from (select 'commit → relay claims the row' as stage, 1 as o, relay as ms from s
            union all select 'relay claims → delivery row created (JetStream, consumer, fan-out)', 2, fan_out from s
            union all select 'delivery row created → POST answered (queue, send)', 3, send from s
            union all select 'of which the POST (send → response read)', 4, a.latency_ms::float8
              from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id join event_outbox o on o.id = d.event_id
              where o.created_at >= ${windowStart}::timestamptz and o.created_at < ${windowEnd}::timestamptz and a.endpoint_id = any(${healthyIds})) x
      group by stage, o order by o`;

    // Every committed event, once per healthy endpoint: what arrived, what did not, what arrived twice.
    const eventIds = new Set((await database.sql<{ id: string }[]>`select id from event_outbox`).map((r) => r.id));
    let lost = 0;
    let duplicates = 0;
    const latencies: number[] = [];
    const bySecond: number[][] = Array.from({ length: Math.ceil((to - from) / 1000) }, () => []);
    const perEndpointP99Ms: number[] = [];
    let inWindow = 0;
    for (const receipts of report.endpoints as Receipts[]) {
      const seen = new Set<string>();
      const mine: number[] = [];
      for (let i = 0; i < receipts.ids.length; i++) {
        const id = receipts.ids[i]!;
        if (seen.has(id)) duplicates += 1;
        else seen.add(id);
        const at = receipts.at[i]!;
        if (at >= from && at < to) inWindow += 1;
        const batch = receipts.batch[i]!;
        if (batch >= firstBatch && batch < lastBatch) {
          const committed = writer.commitAt(batch);
          if (Number.isFinite(committed)) {
            mine.push(at - committed);
            bySecond[Math.floor((committed - from) / 1000)]?.push(at - committed);
          }
        }
      }
      for (const id of eventIds) if (!seen.has(id)) lost += 1;
      latencies.push(...mine);
      perEndpointP99Ms.push(latencyOf(Float64Array.from(mine)).p99);
    }
    const seconds = (to - from) / 1000;
    if (lost > 0) warnings.push(`${label}: ${lost} (endpoint, event) pairs never arrived within the ${options.drainSeconds} s drain`);
    if (cpu.other !== undefined && cpu.other > 25) warnings.push(`${label}: ${cpu.other}% of a core went to processes outside the benchmark`);
    const committedPerSecond = ((lastBatch - firstBatch) * options.eventsPerTransaction) / seconds;
    if (committedPerSecond < eventsPerSecond * 0.98) {
      warnings.push(`${label}: the writer committed only ${Math.round(committedPerSecond)} events/s of the ${eventsPerSecond} asked`);
    }
    const run: WebhookRun = {
      kind,
      label,
      healthyEndpoints: healthyIds.length,
      deadEndpoints: deadIds.length,
      offeredEventsPerSecond: eventsPerSecond,
      committedEventsPerSecond: Math.round(committedPerSecond),
      deliveriesPerSecond: Math.round(inWindow / seconds),
      endToEndMs: latencyOf(Float64Array.from(latencies)),
      perEndpointP99Ms,
      events,
      lost,
      duplicates,
      drainSeconds: Math.round(drainSeconds * 10) / 10,
      deadRequests: report.deadRequests,
      connections: report.connections,
      deliveriesByStatus,
      attemptsByOutcome,
      stagesMs: [...stagesMs],
      timeline: bySecond.map((values, second) => {
        const l = latencyOf(Float64Array.from(values));
        return { second, events: l.count, p50: l.p50, p99: l.p99 };
      }),
      writer: { maxInFlight: writer.maxInFlight(), maxLagMs: Math.round(writer.maxLagMs()) },
      cpu,
      cpuMsPerDelivery: cpuMsPerDelivery(cpu, inWindow / seconds),
      warnings,
    };
    for (const st of stagesMs) log(`  ${st.stage}: p50 ${st.p50} ms, p99 ${st.p99} ms, max ${st.max} ms`);
    log(
      `${label}: ${run.deliveriesPerSecond} deliveries/s, e2e p50 ${run.endToEndMs.p50} ms, p99 ${run.endToEndMs.p99} ms, max ${run.endToEndMs.max} ms; ` +
        `lost ${lost}, duplicates ${duplicates}, ${report.connections} connections; CPU (% of a core) ${Object.entries(cpu).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    );
    return { run, window: { fromUs, toUs } };
  } catch (error) {
    for (const dispatcher of dispatchers) log(`dispatcher ${dispatcher.pid} output:\n${dispatcher.output().slice(-4000)}`);
    throw error;
  } finally {
    await writer?.stop();
    // Gracefully, so a CPU profile is written.
    await Promise.all(dispatchers.map((d) => d.stop(30_000)));
    for (const d of dispatchers) if (d.output().trim()) log(`dispatcher ${d.pid} logged (level warn and above):\n${d.output().trim().slice(-3000)}`);
    await sinks?.stop();
    await nats?.stop();
    await database.close();
    await db.drop();
  }
}

function verdicts(runs: WebhookRun[]): Verdict[] {
  const out: Verdict[] = [];
  // Stepped runs are judged by the steps table (the highest rate kept up with), not one rate's targets.
  const healthy = options.steps ? undefined : runs.find((r) => r.kind === 'healthy');
  const dead = runs.find((r) => r.kind === 'dead');
  if (healthy) {
    out.push({
      target: `≥ ${TARGET_DELIVERIES_PER_SECOND.toLocaleString('en-US')} deliveries/s sustained`,
      measured: `${healthy.deliveriesPerSecond.toLocaleString('en-US')} deliveries/s (${healthy.committedEventsPerSecond} events/s × ${healthy.healthyEndpoints} endpoints committed)`,
      // The offered load is the target itself: "sustained" is keeping up with it, within 1% of counting noise at the window's edges.
      met: healthy.deliveriesPerSecond >= TARGET_DELIVERIES_PER_SECOND * 0.99 && healthy.lost === 0,
    });
    out.push({
      target: `end-to-end (commit → receipt) p99 < ${TARGET_P99_MS} ms`,
      measured: `p50 ${healthy.endToEndMs.p50} ms, p99 ${healthy.endToEndMs.p99} ms`,
      met: healthy.endToEndMs.p99 < TARGET_P99_MS,
    });
  }
  if (healthy && dead) {
    const ratio = dead.endToEndMs.p99 / healthy.endToEndMs.p99;
    out.push({
      target: `a dead endpoint moves the healthy endpoints' p99 by ≤ ${Math.round((TARGET_DEAD_P99_RATIO - 1) * 100)}%`,
      measured: `p99 ${healthy.endToEndMs.p99} → ${dead.endToEndMs.p99} ms (${ratio >= 1 ? '+' : ''}${Math.round((ratio - 1) * 1000) / 10}%), ${dead.deliveriesPerSecond.toLocaleString('en-US')} deliveries/s`,
      met: ratio <= TARGET_DEAD_P99_RATIO && dead.lost === 0,
    });
  }
  for (const run of runs) {
    out.push({ target: `${run.label}: zero lost after the drain`, measured: `${run.lost} lost, ${run.duplicates} duplicates`, met: run.lost === 0 });
  }
  return out;
}

type WebhookReport = {
  startedAt: string;
  environment: Record<string, string | number>;
  runs: WebhookRun[];
  verdicts: Verdict[];
  warnings: string[];
  profile?: string;
};

function renderMarkdown(report: WebhookReport): string {
  const env = Object.entries(report.environment)
    .map(([k, v]) => `${k}: ${v}`)
    .join(' · ');
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const rows = report.runs.map((r) => {
    const { endToEndMs: l, cpu } = r;
    const cpuCell = `${cpu.dispatcher ?? 0} / ${cpu.postgres ?? 0} / ${cpu.sink ?? 0} / ${cpu.nats ?? 0} / ${cpu.writer ?? 0} / ${cpu.other ?? 0}`;
    return `| ${r.label} | ${n(r.committedEventsPerSecond)} | ${n(r.deliveriesPerSecond)} | ${l.p50} | ${l.p95} | ${l.p99} | ${l.max} | ${r.lost} | ${r.duplicates} | ${r.deadEndpoints ? n(r.deadRequests) : '–'} | ${cpuCell} |`;
  });
  const details = report.runs.map(
    (r) =>
      `- ${r.label}: ${n(r.events)} events committed in all; drained in ${r.drainSeconds} s; ${n(r.connections)} connections opened to the healthy endpoints; per-endpoint p99 ${r.perEndpointP99Ms.join(' / ')} ms; ` +
      `deliveries ${JSON.stringify(r.deliveriesByStatus)}; attempts ${JSON.stringify(r.attemptsByOutcome)}; writer: at most ${r.writer.maxInFlight} transactions open, ${r.writer.maxLagMs} ms behind schedule at worst`,
  );
  return [
    `# Webhook delivery benchmark, ${report.startedAt}`,
    '',
    env,
    '',
    '| Run | events/s committed | deliveries/s (healthy) | e2e p50 ms | p95 ms | p99 ms | max ms | lost | duplicates | dead endpoint: requests held | CPU % of a core: dispatcher / postgres / sink / nats / writer / other |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    '| Target (issue) | Measured | Met |',
    '|---|---|---|',
    ...report.verdicts.map((v) => `| ${v.target} | ${v.measured} | ${v.met ? 'yes' : '**no**'} |`),
    '',
    'End-to-end: from the writer seeing its transaction commit to the sink receiving the POST, over every event committed in',
    'the measured window, at every healthy endpoint. deliveries/s: POSTs the healthy endpoints received in the window.',
    'Lost: (healthy endpoint, event) pairs never received once the writer stopped and the deliveries drained.',
    '',
    ...details,
    '',
    'Where the time went (from the rows\' timestamps; the relay stamps published_at when its transaction starts, before publishing):',
    '',
    '| Run | Stage | p50 ms | p99 ms | max ms |',
    '|---|---|---:|---:|---:|',
    ...report.runs.flatMap((r) => r.stagesMs.map((st) => `| ${r.label} | ${st.stage} | ${st.p50} | ${st.p99} | ${st.max} |`)),
    ...(options.steps ? renderSteps(report.runs) : []),
    ...(report.warnings.length ? ['', '## Warnings', '', ...report.warnings.map((w) => `- ${w}`)] : []),
    ...(report.profile ? ['', '## Profile', '', report.profile] : []),
    '',
  ].join('\n');
}

async function main() {
  const mode = options.dispatcherServer ? 'dist' : await prepareDispatcher(options.mode, log);
  log(`dispatcher: running ${options.dispatcherServer ?? (mode === 'dist' ? 'the compiled build (node dist/server.js)' : 'the sources through tsx')}`);
  const runs: WebhookRun[] = [];
  const profiles: string[] = [];
  const plan = options.steps
    ? options.steps.map((rate) => ({ kind: 'healthy' as const, rate, stepped: true }))
    : options.runs.map((kind) => ({ kind, rate: options.eventsPerSecond, stepped: false }));
  for (const { kind, rate, stepped } of plan) {
    const profileDir = options.profile ? join(RESULTS_DIR, 'profiles', `webhooks-${kind}-${rate}-${startedAt.replace(/[:.]/g, '-')}`) : undefined;
    const { run, window } = await runOnce(kind, mode, profileDir, rate, stepped);
    runs.push(run);
    if (profileDir) {
      const summary = profileSummaryOf(profileDir, [window], `Dispatcher CPU profile, ${run.label} (measured window)`);
      if (summary) profiles.push(summary);
    }
  }
  const dispatcherVersion = (JSON.parse(readFileSync(new URL('../../services/webhook-dispatcher/package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const report: WebhookReport = {
    startedAt,
    environment: {
      cpu: `${cpus()[0]?.model ?? 'unknown'} × ${CORES}`,
      'load average at start': loadAtStart.toFixed(2),
      node: process.version,
      postgres: postgresVersion,
      dispatcher: `${options.dispatcherServer ? `compiled (${options.dispatcherServer})` : mode === 'dist' ? 'compiled (node dist/server.js)' : 'sources via tsx'} ${dispatcherVersion}${Object.keys(options.dispatcherEnv).length ? `, ${JSON.stringify(options.dispatcherEnv)}` : ', production defaults'}`,
      'dispatcher processes': options.instances,
      load: `${options.steps ? `steps of ${options.steps.join(', ')}` : options.eventsPerSecond} events/s in transactions of ${options.eventsPerTransaction}, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s measured`,
    },
    runs,
    verdicts: verdicts(runs),
    warnings: runs.flatMap((r) => r.warnings),
    profile: profiles.length ? profiles.join('\n\n') : undefined,
  };
  const markdown = renderMarkdown(report);
  const path = await writeResultFiles(RESULTS_DIR, 'webhooks', startedAt, report, markdown);
  console.log(`\n${markdown}`);
  log(`results written to ${path} (and a timestamped JSON beside it)`);
}

try {
  await main();
} finally {
  clearTimeout(watchdog);
}
