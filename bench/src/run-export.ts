import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CORES } from './cpu.js';
import { createExportRaffle, removeExportRaffle, type ExportRaffle } from './export-raffle.js';
import { ensureKeys } from './keys.js';
import { readExportOptions } from './options.js';
import { processCpuSeconds, processMemory, resetPeakRss } from './process-memory.js';
import { writeResultFiles } from './report.js';
import { ensureDataset } from './seed.js';
import { prepareDataPlane, startDataPlane } from './servers.js';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));
const log = (line: string) => console.log(`[bench:export] ${line}`);
const options = readExportOptions(process.argv.slice(2), process.env);
const startedAt = new Date().toISOString();
const loadAtStart = loadavg()[0]!;
const benchUrl = `${options.postgresUrl}/${options.databaseName}`;

/** Seeding the dataset, building, then each measured run (a generous five minutes) of each round. */
const budgetSeconds = 20 * 60 + options.rounds * 2 * 300;
const watchdog = setTimeout(() => {
  console.error(`[bench:export] watchdog: still running after ${budgetSeconds} s, stopping`);
  process.exit(3);
}, budgetSeconds * 1000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

type Fetched = { rows: number; requests: number; bytes: number };

/** One way to read every entry of the raffle: a warm-up, then the measured read of all of it. */
type Scenario = { id: 'json-pages' | 'csv-export'; label: string; warmUp: (base: string) => Promise<void>; readAll: (base: string) => Promise<Fetched> };

type Run = Fetched & {
  id: Scenario['id'];
  seconds: number;
  rowsPerSecond: number;
  /** The data plane's RSS just before the measured read, after its warm-up. */
  rssBeforeMb: number;
  /** Its VmHWM after the read: reset to the RSS before it, so the read's own peak (`peakReset`). */
  peakRssMb: number;
  peakReset: boolean;
  serverCpuSeconds: number;
};

const PAGE_LIMIT = 250;

function scenarios(raffle: ExportRaffle, workspaceId: string, workspaceKey: string): Scenario[] {
  const headers = { authorization: `Bearer ${workspaceKey}` };
  const raffleUrl = (base: string) => `${base}/api/v1/workspaces/${workspaceId}/raffles/${raffle.id}`;

  /** Follows the entries list's cursor from the start, `maxPages` pages at most. */
  async function walkPages(base: string, maxPages: number): Promise<Fetched> {
    let cursor: string | null = null;
    let last = '';
    const fetched: Fetched = { rows: 0, requests: 0, bytes: 0 };
    do {
      const url: string = `${raffleUrl(base)}/entries?limit=${PAGE_LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await fetch(url, { headers });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
      const page = JSON.parse(text) as { data: Array<{ id: string }>; pagination: { nextCursor: string | null } };
      for (const entry of page.data) {
        if (!(entry.id > last)) throw new Error(`the JSON pages went back from ${last} to ${entry.id}`);
        last = entry.id;
      }
      fetched.rows += page.data.length;
      fetched.requests++;
      fetched.bytes += Buffer.byteLength(text);
      cursor = page.pagination.nextCursor;
    } while (cursor !== null && fetched.requests < maxPages);
    return fetched;
  }

  /** Reads the CSV export as it streams, counting its lines (no field of these entries holds a line break); stops after `maxRows`. */
  async function readCsv(base: string, maxRows: number): Promise<Fetched> {
    const response = await fetch(`${raffleUrl(base)}/exports/entries.csv`, { headers });
    if (response.status !== 200) throw new Error(`entries.csv: ${response.status} ${await response.text()}`);
    let lines = 0;
    let bytes = 0;
    let first: Uint8Array | null = null;
    for await (const chunk of response.body!) {
      first ??= chunk;
      bytes += chunk.byteLength;
      for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines++;
      // Leaving the loop cancels the body: the client goes away mid-download.
      if (lines > maxRows) break;
    }
    if (!first || first[0] !== 0xef || first[1] !== 0xbb || first[2] !== 0xbf) throw new Error('entries.csv does not open with the UTF-8 BOM');
    return { rows: lines - 1, requests: 1, bytes };
  }

  return [
    {
      id: 'json-pages',
      label: `JSON list, limit=${PAGE_LIMIT}, every page`,
      warmUp: async (base) => void (await walkPages(base, 20)),
      readAll: (base) => walkPages(base, Number.POSITIVE_INFINITY),
    },
    {
      id: 'csv-export',
      label: 'CSV export, one response',
      warmUp: async (base) => void (await readCsv(base, 5000)),
      readAll: (base) => readCsv(base, Number.POSITIVE_INFINITY),
    },
  ];
}

/** One measured read on a data plane of its own, so its memory figures are that read's alone. */
async function measure(scenario: Scenario, settings: Parameters<typeof startDataPlane>[0], expectedRows: number): Promise<Run> {
  const server = await startDataPlane(settings);
  try {
    await scenario.warmUp(server.url);
    const peakReset = resetPeakRss(server.pid);
    const before = processMemory(server.pid);
    const cpuBefore = processCpuSeconds(server.pid);
    const started = performance.now();
    const fetched = await scenario.readAll(server.url);
    const seconds = (performance.now() - started) / 1000;
    const after = processMemory(server.pid);
    if (fetched.rows !== expectedRows) throw new Error(`${scenario.label}: read ${fetched.rows} rows, the raffle has ${expectedRows}`);
    return {
      id: scenario.id,
      ...fetched,
      seconds: round(seconds, 2),
      rowsPerSecond: Math.round(fetched.rows / seconds),
      rssBeforeMb: before.rssMb,
      peakRssMb: after.peakRssMb,
      peakReset,
      serverCpuSeconds: round(processCpuSeconds(server.pid) - cpuBefore, 2),
    };
  } finally {
    await server.stop();
  }
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const count = (n: number) => n.toLocaleString('en-US');

/** The round whose rows/s is the median stands for the scenario. */
function medianRun(runs: Run[]): Run {
  const rate = median(runs.map((r) => r.rowsPerSecond));
  return runs.find((r) => r.rowsPerSecond === rate)!;
}

type ExportReport = {
  startedAt: string;
  environment: Record<string, string>;
  raffle: ExportRaffle;
  runs: Run[];
  medians: Record<Scenario['id'], Run>;
  /**
   * Each round's CSV rows/s over the JSON pages' rows/s just before it, and the same for the
   * server's CPU seconds: a pair shares the machine's load of its moment, which the medians of
   * each scenario taken apart do not.
   */
  pairedRatios: { rowsPerSecond: number; serverCpu: number }[];
  warnings: string[];
};

/** The rounds alternate JSON then CSV: each CSV run against the JSON run before it. */
function pairedRatios(runs: Run[]) {
  const pairs = [];
  for (let i = 1; i < runs.length; i += 2) {
    const [json, csv] = [runs[i - 1]!, runs[i]!];
    pairs.push({ rowsPerSecond: round(csv.rowsPerSecond / json.rowsPerSecond, 2), serverCpu: round(csv.serverCpuSeconds / json.serverCpuSeconds, 2) });
  }
  return pairs;
}

function renderMarkdown(report: ExportReport, labels: Record<Scenario['id'], string>): string {
  const json = report.medians['json-pages'];
  const csv = report.medians['csv-export'];
  const growth = (r: Run) => round(r.peakRssMb - r.rssBeforeMb, 1);
  const row = (r: Run) =>
    `| ${labels[r.id]} | ${count(r.rows)} | ${count(r.requests)} | ${(r.bytes / 1048576).toFixed(1)} | ${r.seconds.toFixed(2)} | ${count(r.rowsPerSecond)} | ` +
    `${(r.rowsPerSecond / json.rowsPerSecond).toFixed(2)} | ${r.rssBeforeMb} | ${r.peakRssMb} | ${growth(r)} | ${r.serverCpuSeconds.toFixed(2)} |`;
  return [
    `# Exporting a raffle's ${count(report.raffle.entries)} entries (${report.startedAt})`,
    '',
    ...Object.entries(report.environment).map(([k, v]) => `- ${k}: ${v}`),
    '',
    '| read | rows | requests | MB sent | time (s) | rows/s | × JSON rows/s | server RSS before (MB) | server peak RSS (MB) | peak − before (MB) | server CPU (s) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row(json),
    row(csv),
    '',
    `Medians: the CSV export reads the raffle at ${(csv.rowsPerSecond / json.rowsPerSecond).toFixed(2)}× the JSON list's rows/s, ` +
      `with the server's peak RSS ${growth(csv)} MB above its RSS before the read (the JSON pages: ${growth(json)} MB). ` +
      `Round by round, CSV over the JSON run just before it: rows/s ×${report.pairedRatios.map((p) => p.rowsPerSecond.toFixed(2)).join(', ×')}; ` +
      `server CPU ×${report.pairedRatios.map((p) => p.serverCpu.toFixed(2)).join(', ×')}.`,
    '',
    `Every round (${report.runs.length / 2} of each, alternating, each on a fresh data plane):`,
    '',
    ...report.runs.map((r) => `- ${labels[r.id]}: ${count(r.rowsPerSecond)} rows/s, peak RSS ${r.peakRssMb} MB (before ${r.rssBeforeMb} MB), server CPU ${r.serverCpuSeconds} s`),
    ...(report.warnings.length ? ['', '**Warnings**', '', ...report.warnings.map((w) => `- ${w}`)] : []),
    '',
  ].join('\n');
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
  log(`creating a raffle of ${count(options.exportEntries)} entries`);
  const raffle = await createExportRaffle(benchUrl, manifest, options.exportEntries);

  const all = scenarios(raffle, manifest.workspaceId, keys.workspace);
  const labels = Object.fromEntries(all.map((s) => [s.id, s.label])) as Record<Scenario['id'], string>;
  const settings = {
    mode,
    databaseUrl: benchUrl,
    cursorSecret: randomBytes(32).toString('hex'),
    poolSize: options.databasePoolSize,
    ...(options.serverNodeOptions ? { env: { NODE_OPTIONS: options.serverNodeOptions } } : {}),
  };
  const runs: Run[] = [];
  try {
    for (let r = 1; r <= options.rounds; r++) {
      for (const scenario of all) {
        log(`${scenario.label} (round ${r}/${options.rounds})`);
        const run = await measure(scenario, settings, raffle.entries);
        log(`  ${count(run.rowsPerSecond)} rows/s in ${run.seconds} s; server RSS ${run.rssBeforeMb} MB before, peak ${run.peakRssMb} MB; CPU ${run.serverCpuSeconds} s`);
        runs.push(run);
      }
    }
  } finally {
    await removeExportRaffle(benchUrl);
  }

  const warnings: string[] = [];
  if (runs.some((r) => !r.peakReset)) warnings.push('the peak RSS could not be reset before a read (/proc/<pid>/clear_refs): its peak includes the start-up and warm-up');
  const load = Math.max(loadAtStart, loadavg()[0]!);
  if (load > CORES * 0.75) warnings.push(`load average up to ${load.toFixed(2)} on ${CORES} cores: other work shared the machine`);
  const report: ExportReport = {
    startedAt,
    environment: {
      cpu: `${cpus()[0]?.model ?? 'unknown'} × ${CORES}`,
      'load average at start': loadAtStart.toFixed(2),
      node: process.version,
      'data plane': `${mode === 'dist' ? 'compiled (node dist/server.js)' : 'sources via tsx'}, pool size ${options.databasePoolSize}, a fresh process per read${options.serverNodeOptions ? `, NODE_OPTIONS=${options.serverNodeOptions}` : ''}`,
      client: 'this process, one request at a time (fetch); the JSON pages are parsed, the CSV lines counted',
      dataset: `${manifest.spec.bigRaffleEntries.toLocaleString('en-US')} entries in the big raffle, seeded ${seededNow ? 'this run' : manifest.seededAt}; the exported raffle created for the run`,
    },
    raffle,
    runs,
    medians: { 'json-pages': medianRun(runs.filter((r) => r.id === 'json-pages')), 'csv-export': medianRun(runs.filter((r) => r.id === 'csv-export')) },
    pairedRatios: pairedRatios(runs),
    warnings,
  };
  const markdown = renderMarkdown(report, labels);
  const path = await writeResultFiles(RESULTS_DIR, 'export', startedAt, report, markdown);
  console.log(`\n${markdown}`);
  log(`results written to ${path} (and a timestamped JSON beside it)`);
}

try {
  await main();
} finally {
  clearTimeout(watchdog);
}
