import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInOneBashSession, type SessionResult } from './bash-session.js';
import { failureLinesIn, pointAtPorts, readmeShellBlocks } from './readme-blocks.js';
import { repoRoot, startReadmePlatform, type ReadmePlatform } from './readme-platform.js';

/**
 * Every README example works as a newcomer meets it, and works again.
 *
 * The README's fenced shell blocks are read in order (readme-blocks.ts has the convention:
 * `sh` runs, `sh no-run` is shown only). The runnable ones run top to bottom in one bash session
 * with `set -euo pipefail`, from the repository root, against a platform started from `start`'s
 * own functions on a fresh database (readme-platform.ts); `localhost:3000`/`3001`/`3002` in the
 * blocks are rewritten to that platform's ports (for the data plane and management, to Prism's in
 * front of them, which checks every request and response against the OpenAPI documents; any
 * violation fails the run), and DEMO_KEYS points at the `.demo-keys.json`
 * written for it. Then the whole session runs a second time against the same platform: the
 * examples must be re-runnable. An example that prints a failed verdict ("NOT valid", "INVALID",
 * "FAIL") fails the run though it exited 0. A failure names the block, its README line, its code
 * and its output.
 */
const README = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const SESSION_TIMEOUT_MS = 180_000;

describe('README examples', () => {
  let platform: ReadmePlatform;

  beforeAll(async () => {
    platform = await startReadmePlatform();
  });
  afterAll(async () => platform?.stop());

  it('marks every shell block runnable or no-run, needs no installed pnpm, and spells its ports out', () => {
    const blocks = readmeShellBlocks(README);
    expect(blocks.filter((b) => b.runnable).length).toBeGreaterThan(5);
    // npm is all a newcomer has: pnpm comes through `npx -y pnpm@<version>`.
    const barePnpm = blocks.filter((b) => /(^|[\s;&|(`$])pnpm\s/m.test(b.source.replace(/pnpm@[\d.]+/g, '')));
    expect(barePnpm.map((b) => `line ${b.line}: ${b.source}`)).toEqual([]);
    // Only literal ports can be pointed at the test's platform; `localhost:$PORT` would reach whatever listens on 300x.
    const computedPorts = blocks.filter((b) => b.runnable && /(localhost|127\.0\.0\.1):\$/.test(b.source));
    expect(computedPorts.map((b) => `line ${b.line}`)).toEqual([]);
  });

  for (const run of [1, 2]) {
    it(`run ${run}: every runnable block succeeds, in order, in one bash session`, async () => {
      const blocks = readmeShellBlocks(README)
        .filter((b) => b.runnable)
        .map((b) => ({ ...b, script: pointAtPorts(b.source, platform.ports) }));
      const result = await runInOneBashSession(blocks, {
        cwd: repoRoot,
        env: { ...process.env, NODE_ENV: 'development', DEMO_KEYS: platform.demoKeysFile },
        timeoutMs: SESSION_TIMEOUT_MS,
      });
      const violations = await platform.takeContractViolations();
      if (result.failed) throw new Error(failureReport(run, result, platform.recentLogs(), violations));
      expect(result.ran.map((r) => r.block.index)).toEqual(blocks.map((b) => b.index));
      // Exiting 0 is not enough: an example that prints a failed verdict does not do what the README says.
      const printedFailures = result.ran.flatMap((r) => failureLinesIn(r.output).map((line) => `block ${r.block.index} (README.md line ${r.block.line}): ${line}`));
      expect(printedFailures, 'README examples that printed a failure').toEqual([]);
      expect(violations, 'Prism found requests or responses that break the OpenAPI documents').toEqual([]);
      const checked = platform.contractCheckedRequests();
      expect(Math.min(checked.dataPlane, checked.management), `requests Prism checked: ${JSON.stringify(checked)}`).toBeGreaterThan(run * 5);
    });
  }
});

function failureReport(run: number, result: SessionResult, serviceLogs: string, violations: string[]): string {
  const { block, output, exitCode, signal } = result.failed!;
  return [
    `README run ${run}: shell block ${block.index} (README.md line ${block.line}) failed (exit ${exitCode ?? signal}) after ${result.ran.length - 1} blocks passed.`,
    '--- the block ---',
    block.source,
    '--- its output ---',
    output || '(none)',
    '--- the services\' latest log lines ---',
    serviceLogs.split('\n').slice(-15).join('\n'),
    '--- what Prism found wrong ---',
    violations.join('\n') || '(nothing)',
  ].join('\n');
}
