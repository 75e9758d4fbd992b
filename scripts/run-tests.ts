import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_LOG_DIR_VARIABLE } from '@raffle/service-kit/testing/run-log';
import { scanRunLogs } from '@raffle/service-kit/testing/run-log-scan';

/**
 * The one test command: typecheck everything, then run every vitest project against the real
 * Postgres, NATS and Redis in three stages, then scan every log line the services wrote during the
 * run for secrets, and close with a plain "Tests: N passed, N failed" line (the log scan and the
 * two OpenAPI checks count as one test each).
 *
 * Nothing is built first: the tests run from sources (the `development` condition), and the few
 * that need a build make their own when they run. The SDK's packed-tarball test packs the SDK
 * (`prepack` builds its dist) and builds a consumer page of its own with Vite; the console's browser
 * journeys and the README test build the console with Vite into a folder of their own (their global
 * setups). Services the tests start as processes run from sources through tsx. The README test and
 * the SDK's integration tests reach the data plane and management through Prism (`prism proxy
 * --errors`, service-kit's testing/contract-proxy), so the OpenAPI documents are also checked
 * against real traffic inside the stages, at no stage of their own.
 */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  return result.status ?? 1;
}

/**
 * `tsc -b` over the project references in tsconfig.json: each package's sources once, with the
 * declaration emit a production build does (it catches what a no-emit check cannot), then the tests
 * and scripts against those declarations. Incremental: a rerun with nothing changed takes seconds.
 */
const typecheckStarted = Date.now();
const typecheck = run('pnpm', ['exec', 'tsc', '-b']);
if (typecheck !== 0) {
  console.error('typecheck failed');
  process.exit(typecheck);
}
console.log(`Typecheck: ${Math.round((Date.now() - typecheckStarted) / 1000)} s`);

/**
 * The OpenAPI documents, before the stages (seconds, no service running): the committed files in
 * docs/openapi and the SDK's generated types must be what the code generates now, and redocly's
 * lint (redocly.yaml) must find no error in them. Each counts as one test in the closing line.
 */
const OPENAPI_CHECKS = [
  { name: 'openapi:export --check', args: ['openapi:export', '--check'] },
  { name: 'openapi:lint (redocly)', args: ['--silent', 'openapi:lint'] },
] as const;
const quietRedocly = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
const openApiFailures = OPENAPI_CHECKS.filter((check) => {
  const failed = run('pnpm', [...check.args], quietRedocly) !== 0;
  console.log(`OpenAPI check ${check.name}: ${failed ? 'failed' : 'passed'}`);
  return failed;
}).length;

const runDir = mkdtempSync(join(tmpdir(), 'raffle-tests-'));
const logDir = join(runDir, 'run-log');
const testEnv = { ...process.env, [RUN_LOG_DIR_VARIABLE]: logDir };

type StageReport = { numPassedTests: number; numFailedTests: number; numPendingTests: number };

/**
 * Three stages, one vitest run each: `integration` (every project but the later ones; keep it
 * near five minutes), `resilience` (services as processes with their dependencies stopped and
 * restarted, and the fuzzers) and `browser` (the console's journeys in Chromium, each file a
 * whole platform, one at a time). Arguments given to the command (a file filter, say) apply to
 * every stage. Stages are predicates over the project names vitest reports, so a new project
 * lands in `integration` unless it says otherwise.
 */
const STAGES = [
  // Two files at a time (vitest's default on a two-core machine is one worker: one file at a
  // time). The files spend much of their time waiting on Postgres, NATS, HTTP and child processes,
  // and each has its own database, Redis namespace and NATS stream, so two can run side by side.
  // Measured on two cores: the whole stage took 503 s with one worker and 393 s with two
  // (data-plane + management alone: 335 s and 208 s). Vitest 4 has no --minWorkers.
  { name: 'integration', includes: (project: string) => !project.endsWith('-resilience') && project !== 'console', vitestArgs: ['--maxWorkers=2'] },
  { name: 'resilience', includes: (project: string) => project.endsWith('-resilience'), vitestArgs: [] },
  { name: 'browser', includes: (project: string) => project === 'console', vitestArgs: [] },
] as const;

function projectNames(): string[] {
  const listed = spawnSync('pnpm', ['exec', 'vitest', 'list', '--filesOnly', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (listed.status !== 0) {
    console.error(listed.stderr);
    console.log('Tests: 0 passed, 1 failed (vitest could not list the projects)');
    process.exit(1);
  }
  const files = JSON.parse(listed.stdout) as { projectName: string }[];
  return [...new Set(files.map((f) => f.projectName))].sort();
}

const projects = projectNames();

let status = 0;
const reports: StageReport[] = [];
for (const stage of STAGES) {
  const reportFile = join(runDir, `vitest-${stage.name}.json`);
  const started = Date.now();
  const stageProjects = projects.filter(stage.includes);
  if (stageProjects.length === 0) continue;
  const stageStatus = run(
    'pnpm',
    ['exec', 'vitest', 'run', '--passWithNoTests', ...stage.vitestArgs, ...stageProjects.map((p) => `--project=${p}`), '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...process.argv.slice(2)],
    testEnv,
  );
  status ||= stageStatus;
  try {
    reports.push(JSON.parse(readFileSync(reportFile, 'utf8')) as StageReport);
  } catch {
    console.log(`Tests: 0 passed, 1 failed (the ${stage.name} stage wrote no vitest report)`);
    process.exit(stageStatus === 0 ? 1 : stageStatus);
  }
  console.log(`Stage ${stage.name}: ${Math.round((Date.now() - started) / 1000)} s`);
}

const scan = scanRunLogs(logDir);
// By source, so a service whose lines never reach the run log (the console's did not, issue 23) shows by its absence.
const bySource = Object.entries(scan.linesBySource).sort(([a], [b]) => a.localeCompare(b)).map(([source, lines]) => `${source} ${lines}`).join(', ');
console.log(`Log scan: ${scan.lines} lines from ${scan.files} log files (${bySource || 'none'}), against ${scan.secrets} recorded secrets: ${scan.findings.length} findings`);
for (const finding of scan.findings.slice(0, 20)) console.log(`  ${finding.kind} in ${finding.file}: ${finding.excerpt}`);
if (scan.lines === 0) console.log('  no log line was collected: the run log is not wired up');
const scanFailed = scan.findings.length > 0 || scan.lines === 0 ? 1 : 0;

const total = (field: keyof StageReport) => reports.reduce((sum, report) => sum + report[field], 0);
const extraChecks = 1 + OPENAPI_CHECKS.length;
const extraFailures = scanFailed + openApiFailures;
console.log(`Tests: ${total('numPassedTests') + extraChecks - extraFailures} passed, ${total('numFailedTests') + extraFailures} failed, ${total('numPendingTests')} skipped`);
process.exit(status !== 0 ? status : extraFailures > 0 ? 1 : 0);
