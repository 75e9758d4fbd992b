import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The one test command: typecheck every package and build it as production does (declaration
 * emit catches what the no-emit typecheck cannot), then run every vitest project against the
 * real Postgres and NATS, and close with a plain "Tests: N passed, N failed" line.
 */
function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  return result.status ?? 1;
}

const typecheck =
  run('pnpm', ['exec', 'turbo', 'run', 'typecheck', 'build', '--output-logs=errors-only']) || run('pnpm', ['exec', 'tsc', '-p', 'tsconfig.json']);
if (typecheck !== 0) {
  console.error('typecheck failed');
  process.exit(typecheck);
}

const reportFile = join(mkdtempSync(join(tmpdir(), 'raffle-tests-')), 'vitest.json');
const status = run('pnpm', ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...process.argv.slice(2)]);

try {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number };
  console.log(`Tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`);
} catch {
  console.log('Tests: 0 passed, 1 failed (no vitest report was written)');
  process.exit(status === 0 ? 1 : status);
}
process.exit(status);
