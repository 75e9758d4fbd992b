import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, type Database } from '@raffle/db';
import type { AllowlistChildInput, AllowlistChildResult } from './allowlist-child.js';
import { ALLOWLIST_SLUG_PREFIX } from './allowlist-dataset.js';
import { medianProofRun, proofScenarios, runProofScenario, type ProofLoadResult } from './allowlist-proofs.js';
import { buildMedians, renderAllowlistMarkdown, type AllowlistReport, type BuildResults } from './allowlist-report.js';
import { otherDueBuilds, requeueBuild, resetToDrawn, seedAllowlistRaffles, type AllowlistRaffles } from './allowlist-seed.js';
import { removeBenchRaffles } from './bench-raffles.js';
import { CORES, parentPid } from './cpu.js';
import { ensurePersonalKeys } from './entrant-keys.js';
import { runJsonChild } from './json-child.js';
import { ensureKeys } from './keys.js';
import { readAllowlistOptions } from './options.js';
import { profileSummaryOf, type MonotonicWindow } from './profile-summary.js';
import { writeResultFiles } from './report.js';
import { ensureDataset, type Manifest } from './seed.js';
import { prepareDataPlane, startBareFastify, startDataPlane, type ChildServer } from './servers.js';
import { wrkVersion } from './wrk.js';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));
const CHILD_SCRIPT = fileURLToPath(new URL('./allowlist-child.ts', import.meta.url));
const CHILD_TIMEOUT_SECONDS = 600;
const SCENARIOS = ['allowlist-build', 'allowlist-proofs'] as const;
type AllowlistScenarioId = (typeof SCENARIOS)[number];
/** The proof load's winners: a scope of their own (the proof route's), apart from the entrants' keys. */
const WINNER_KEYS = { name: 'bench allowlist winner key', scopes: ['wins:read'] };

const log = (line: string) => console.log(`[bench:allowlist] ${line}`);
const options = readAllowlistOptions(process.argv.slice(2), process.env);
const startedAt = new Date().toISOString();
const loadAtStart = loadavg()[0]!;
const runTag = Date.now().toString(36);
const benchUrl = `${options.postgresUrl}/${options.databaseName}`;
const only = (options.only ?? [...SCENARIOS]) as AllowlistScenarioId[];
const unknown = only.filter((id) => !SCENARIOS.includes(id));
if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}`);

const perWrkSeconds = options.warmupSeconds + options.durationSeconds + 15;
const budgetSeconds = 20 * 60 + (options.finalizeRounds * 2 + options.buildRounds * 2) * CHILD_TIMEOUT_SECONDS + options.rounds * 3 * perWrkSeconds;
const watchdog = setTimeout(() => {
  console.error(`[bench:allowlist] watchdog: still running after ${budgetSeconds} s, stopping`);
  process.exit(3);
}, budgetSeconds * 1000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

function runStep(raffleId: string, workspaceId: string, phase: AllowlistChildInput['phase']): Promise<AllowlistChildResult> {
  const input: AllowlistChildInput = { databaseUrl: benchUrl, raffleId, workspaceId, phase };
  return runJsonChild<AllowlistChildResult>(CHILD_SCRIPT, input, {
    prefix: 'ALLOWLIST_JSON',
    timeoutSeconds: CHILD_TIMEOUT_SECONDS,
    // The child collects garbage before measuring, so its baseline is what it holds, not what start-up left.
    nodeArgs: ['--expose-gc'],
    label: `allowlist child (${phase})`,
  });
}

/**
 * allowlist-build: each finalize round finalizes the airdrop and then the allowlist raffle (the
 * two put back to drawn between rounds); each build round publishes the allowlist (its versions
 * dropped and its build queued again between rounds), then calls the build's parts one by one.
 * Every step is checked.
 */
async function measureBuild(database: Database, manifest: Manifest, raffles: AllowlistRaffles, warnings: string[]): Promise<NonNullable<AllowlistReport['build']>> {
  const results: BuildResults = { finalize: { allowlist: [], airdrop: [] }, publish: [], pieces: [] };
  const step = (raffleId: string, phase: AllowlistChildInput['phase']) => runStep(raffleId, manifest.workspaceId, phase);
  for (let round = 1; round <= options.finalizeRounds; round++) {
    if (round > 1) {
      await resetToDrawn(database, raffles.airdrop.id);
      await resetToDrawn(database, raffles.allowlist.id);
    }
    const describe = (r: AllowlistChildResult) =>
      r.timedOutAfterSeconds === undefined ? `${r.seconds} s` : `cancelled by its statement bound after ${r.timedOutAfterSeconds} s; with the bound raised ${r.seconds} s`;
    const airdrop = await step(raffles.airdrop.id, 'finalize');
    log(`finalize round ${round}/${options.finalizeRounds}: airdrop ${describe(airdrop)}, peak RSS ${airdrop.maxRssMb} MB`);
    const allowlist = await step(raffles.allowlist.id, 'finalize');
    log(`finalize round ${round}/${options.finalizeRounds}: allowlist ${describe(allowlist)} (queue upsert alone ${((allowlist.queueSeconds ?? 0) * 1000).toFixed(1)} ms), peak RSS ${allowlist.maxRssMb} MB`);
    for (const [name, r] of [['allowlist', allowlist], ['airdrop', airdrop]] as const) {
      if (r.timedOutAfterSeconds !== undefined) {
        warnings.push(`round ${round}: finalizeRaffle of the ${name} raffle ran past its transition bound (15 s a statement) and was cancelled after ${r.timedOutAfterSeconds} s; its time is finalizeRaffleIn's with the bound raised`);
      }
    }
    for (const [name, r, queued] of [['allowlist', allowlist, true], ['airdrop', airdrop, false]] as const) {
      if (r.finalizedWins !== raffles.winners) throw new Error(`finalizing the ${name} raffle left ${r.finalizedWins} finalized wins, not ${raffles.winners}`);
      if (r.buildQueued !== queued) throw new Error(`finalizing the ${name} raffle ${queued ? 'queued no' : 'queued an'} allowlist build`);
    }
    results.finalize.allowlist.push(allowlist);
    results.finalize.airdrop.push(airdrop);
  }
  for (let round = 1; round <= options.buildRounds; round++) {
    if (round > 1) await requeueBuild(database, raffles.allowlist.id);
    const others = await otherDueBuilds(database, raffles.allowlist.id);
    if (others) warnings.push(`${others} other allowlist builds were queued: a publish round may have built them too`);
    const publish = await step(raffles.allowlist.id, 'publish');
    const pieces = await step(raffles.allowlist.id, 'pieces');
    const p = pieces.pieces!;
    log(`build round ${round}/${options.buildRounds}: publishDueAllowlists ${publish.seconds} s, peak RSS ${publish.maxRssMb} MB (${publish.baselineRssMb} before); parts: read ${p.readSeconds} s, hash ${p.hashSeconds} s, write ${p.writeSeconds} s`);
    if (publish.published !== 1) throw new Error(`publishDueAllowlists published ${publish.published} versions, expected 1`);
    if (publish.leaves !== raffles.winners) throw new Error(`the version has ${publish.leaves} leaves, expected ${raffles.winners}`);
    if (pieces.root !== publish.root) throw new Error(`the parts built root ${pieces.root}, publishDueAllowlists ${publish.root}`);
    results.publish.push(publish);
    results.pieces.push(pieces);
  }
  const roots = new Set(results.publish.map((r) => r.root));
  if (roots.size !== 1) throw new Error(`the rounds published different roots: ${[...roots].join(', ')}`);
  return { ...results, medians: buildMedians(results), root: results.publish[0]!.root!, leaves: results.publish[0]!.leaves! };
}

/** Finalizes and publishes the allowlist without measuring: what allowlist-proofs needs when allowlist-build does not run. */
async function publishUnmeasured(manifest: Manifest, raffles: AllowlistRaffles): Promise<{ root: string; leaves: number }> {
  await runStep(raffles.allowlist.id, manifest.workspaceId, 'finalize');
  const publish = await runStep(raffles.allowlist.id, manifest.workspaceId, 'publish');
  if (publish.published !== 1 || !publish.root) throw new Error(`publishDueAllowlists published ${publish.published} versions, expected 1`);
  log(`allowlist published (not measured): ${publish.leaves} leaves in ${publish.seconds} s`);
  return { root: publish.root, leaves: publish.leaves! };
}

/** allowlist-proofs: bare Fastify and the data plane's two allowlist reads, round-robin, in one run. */
async function measureProofs(database: Database, manifest: Manifest, raffles: AllowlistRaffles, published: { root: string; leaves: number }, profileDir: string | undefined) {
  const keys = await ensurePersonalKeys(benchUrl, manifest, `${RESULTS_DIR}winner-keys.txt`, Math.min(options.proofKeys, raffles.winners), WINNER_KEYS, log);
  const { workspace: workspaceKey } = await ensureKeys(benchUrl, manifest, `${RESULTS_DIR}keys.json`);
  const mode = await prepareDataPlane(options.mode, log);
  log(`data plane: running ${mode === 'dist' ? 'the compiled build (node dist/server.js)' : 'the sources through tsx'}`);
  const [backend] = await database.sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const scenarios = proofScenarios({ raffle: raffles.allowlist, workspaceId: manifest.workspaceId, workspaceKey, ...published });
  const servers: Partial<Record<'bare' | 'data-plane', ChildServer>> = {};
  const runs = new Map<string, ProofLoadResult[]>();
  const windows: MonotonicWindow[] = [];
  try {
    servers.bare = await startBareFastify();
    servers['data-plane'] = await startDataPlane({
      mode,
      databaseUrl: benchUrl,
      cursorSecret: 'bench-allowlist-cursor-secret-0123456789abcdef',
      poolSize: options.databasePoolSize,
      trustProxy: true,
      profileDir,
    });
    const context = {
      servers: servers as Record<'bare' | 'data-plane', ChildServer>,
      keys,
      postmasterPid: parentPid(backend!.pid),
      load: { connections: options.connections, threads: options.threads, warmupSeconds: options.warmupSeconds, durationSeconds: options.durationSeconds },
    };
    for (let round = 1; round <= options.rounds; round++) {
      for (const scenario of scenarios) {
        log(`${scenario.label}${options.rounds > 1 ? ` (round ${round}/${options.rounds})` : ''}: ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured`);
        const { result, window } = await runProofScenario(scenario, context);
        if (scenario.server === 'data-plane') windows.push(window);
        log(`  ${Math.round(result.wrk.requestsPerSecond)} req/s, p50 ${result.wrk.latencyMs.p50} ms, p99 ${result.wrk.latencyMs.p99} ms; CPU server ${result.cpu.server}%, postgres ${result.cpu.postgres}%, wrk ${result.cpu.wrk}%, other ${result.cpu.other}%`);
        runs.set(scenario.id, [...(runs.get(scenario.id) ?? []), result]);
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
  const profile = profileDir ? profileSummaryOf(profileDir, windows) : undefined;
  return { results: scenarios.map((s) => medianProofRun(runs.get(s.id)!)), mode, profile };
}

function proofWarnings(results: ProofLoadResult[]): string[] {
  const warnings: string[] = [];
  for (const r of results) {
    const { connect, read, write, status, timeout } = r.wrk.errors;
    const failed = status + connect + read + write + timeout;
    if (failed > 0) warnings.push(`${r.label}: ${failed} failed requests (${JSON.stringify(r.wrk.errors)}${r.wrk.samples ? `; ${JSON.stringify(r.wrk.samples)}` : ''}); its numbers are not comparable`);
    if ((r.wrk.keysWrapped ?? 0) > 0) warnings.push(`${r.label}: the winners' keys ran out ${r.wrk.keysWrapped} times (later requests repeat winners)`);
    if ((r.cpu.other ?? 0) > 25) warnings.push(`${r.label}: ${r.cpu.other}% of a core went to processes outside the benchmark (other load on the machine)`);
  }
  return warnings;
}

async function main() {
  const { manifest, seededNow } = await ensureDataset(
    { adminUrl: `${options.postgresUrl}/postgres`, benchUrl, databaseName: options.databaseName },
    options.spec,
    { reseed: options.reseed, log },
  );
  const database = createDatabase({ url: benchUrl, max: 2, applicationName: 'bench-allowlist' });
  const warnings: string[] = [];
  const profileDir = options.profile ? join(RESULTS_DIR, 'profiles', `allowlist-${startedAt.replace(/[:.]/g, '-')}`) : undefined;
  let build: AllowlistReport['build'];
  let proofs: Awaited<ReturnType<typeof measureProofs>> | undefined;
  let seedSeconds = 0;
  try {
    const leftovers = await removeBenchRaffles(database, manifest, ALLOWLIST_SLUG_PREFIX);
    if (leftovers.raffles + leftovers.events) log(`removed what an earlier run left behind: ${leftovers.raffles} raffles, ${leftovers.events} events`);
    const seedStarted = performance.now();
    const raffles = await seedAllowlistRaffles(database, manifest, options.winners, runTag);
    seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
    log(`seeded two drawn raffles of ${options.winners.toLocaleString('en-US')} winners each in ${seedSeconds} s`);

    if (only.includes('allowlist-build')) build = await measureBuild(database, manifest, raffles, warnings);
    if (only.includes('allowlist-proofs')) {
      const published = build ? { root: build.root, leaves: build.leaves } : await publishUnmeasured(manifest, raffles);
      proofs = await measureProofs(database, manifest, raffles, published, profileDir);
      warnings.push(...proofWarnings(proofs.results));
    }
  } finally {
    const removed = await removeBenchRaffles(database, manifest, ALLOWLIST_SLUG_PREFIX).catch((error: Error) => {
      log(`could not remove the benchmark's raffles: ${error.message}`);
      return null;
    });
    if (removed) log(`removed the ${removed.raffles} raffles this run created (with their entries, wins and allowlists) and ${removed.events} events`);
    await database.close();
  }

  const load = Math.max(loadAtStart, loadavg()[0]!);
  if (load > CORES * 0.75) warnings.push(`load average up to ${load.toFixed(2)} on ${CORES} cores: other work shared the machine, times are inflated`);
  const report: AllowlistReport = {
    startedAt,
    environment: {
      cpu: `${cpus()[0]?.model ?? 'unknown'} × ${CORES}`,
      'load average at start': loadAtStart.toFixed(2),
      node: process.version,
      code: '@raffle/domain sources through tsx (the build steps)',
      ...(proofs
        ? {
            wrk: wrkVersion(),
            'data plane': proofs.mode === 'dist' ? 'compiled (node dist/server.js)' : 'sources via tsx',
            'pool size': options.databasePoolSize,
            load: `${options.connections} connections, ${options.threads} threads, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per scenario${options.rounds > 1 ? `, ${options.rounds} rounds (median shown)` : ''}`,
          }
        : {}),
      dataset: `${manifest.spec.raffles.toLocaleString('en-US')} raffles, ${manifest.spec.bigRaffleEntries.toLocaleString('en-US')} entries in the big one, seeded ${seededNow ? 'this run' : manifest.seededAt}`,
    },
    winners: options.winners,
    seedSeconds,
    build,
    proofs: proofs?.results,
    warnings,
  };
  let markdown = renderAllowlistMarkdown(report);
  if (proofs?.profile) markdown += `\n## Profile of the data plane\n\n${proofs.profile}\n`;
  const path = await writeResultFiles(RESULTS_DIR, 'allowlist', startedAt, report, markdown);
  console.log(`\n${markdown}`);
  log(`results written to ${path} (and a timestamped JSON beside it)`);
}

try {
  await main();
} finally {
  clearTimeout(watchdog);
}
