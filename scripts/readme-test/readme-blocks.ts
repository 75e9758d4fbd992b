/**
 * The README's shell examples, as the README test runs them.
 *
 * Convention (also stated in an HTML comment in README.md): a fenced block whose info string is
 * `sh` (or `bash`) is runnable and the test runs it; `sh no-run` marks a block that is shown but
 * not run (install, start, the test command, long-running commands). Any other word after the
 * language is refused, so a typo cannot silently drop a block from the test. Blocks in other
 * languages (json, plain text) are not shell and are ignored.
 */
export type ReadmeBlock = {
  /** 1-based position among the README's shell blocks. */
  index: number;
  /** The README line the block's code starts on. */
  line: number;
  runnable: boolean;
  source: string;
};

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);
const NO_RUN = 'no-run';
const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

export function readmeShellBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, , fence, info] = open;
    const end = lines.findIndex((l, j) => j > i && l.trim().startsWith(fence!) && l.trim().replace(/[`~]/g, '') === '');
    if (end < 0) throw new Error(`README line ${i + 1}: the fence ${fence} is never closed`);
    const [language = '', ...flags] = info!.trim().split(/\s+/).filter(Boolean);
    if (SHELL_LANGUAGES.has(language)) {
      const unknown = flags.filter((f) => f !== NO_RUN);
      if (unknown.length > 0) throw new Error(`README line ${i + 1}: unknown fence flag ${unknown.join(' ')} (only "${NO_RUN}" is known)`);
      blocks.push({ index: blocks.length + 1, line: i + 2, runnable: !flags.includes(NO_RUN), source: lines.slice(i + 1, end).join('\n') });
    }
    i = end;
  }
  return blocks;
}

export type PlatformPorts = { dataPlane: number; management: number; dispatcher: number; console?: number };

/**
 * The README speaks of the ports `start` uses (3000, 3001, 3002, and 3003 for the console); the
 * test's services listen on free ports, so each `localhost:300x` / `127.0.0.1:300x` becomes the
 * test's port.
 */
export function pointAtPorts(source: string, ports: PlatformPorts): string {
  const byReadmePort: Record<string, number | undefined> = { '3000': ports.dataPlane, '3001': ports.management, '3002': ports.dispatcher, '3003': ports.console };
  return source.replace(/\b(localhost|127\.0\.0\.1):(300[0123])\b/g, (match, _host: string, port: string) => {
    const testPort = byReadmePort[port];
    return testPort === undefined ? match : `127.0.0.1:${testPort}`;
  });
}

/**
 * What a README example prints when it did not do what the README says, though it exited 0: a
 * verdict of `verifyDraw` or `raffle-verify-draw` that is not VALID ("NOT valid", "INVALID", a
 * check row's "FAIL"). Upper case and whole words only: an error code such as
 * `SESSION_TOKEN_INVALID`, which the README shows on purpose, is not one.
 */
const FAILURE_MARKERS: readonly RegExp[] = [/\bNOT valid\b/, /(?<![A-Za-z0-9_])INVALID(?![A-Za-z0-9_])/, /(?<![A-Za-z0-9_])FAIL(?:ED)?(?![A-Za-z0-9_])/];

/** The lines of an example's output that report a failure (see FAILURE_MARKERS). */
export function failureLinesIn(output: string): string[] {
  return output.split('\n').filter((line) => FAILURE_MARKERS.some((marker) => marker.test(line)));
}
