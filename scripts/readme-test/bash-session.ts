import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReadmeBlock } from './readme-blocks.js';

export type BlockResult = { block: ReadmeBlock; output: string };
export type SessionResult = {
  /** The blocks that ran, each with what it printed (stdout and stderr, interleaved as they came). */
  ran: BlockResult[];
  /** The block that failed, if one did: the last one that started. */
  failed: (BlockResult & { exitCode: number | null; signal: string | null }) | null;
};

const MARK = '@@readme-block';
const DONE = '@@readme-done@@';

/**
 * Runs the blocks, in order, as one bash script under `set -euo pipefail` — what a newcomer
 * pasting them one after the other into one terminal gets, with any failure fatal. A marker line
 * before each block says which block the output that follows belongs to.
 */
export async function runInOneBashSession(
  blocks: Array<ReadmeBlock & { script: string }>,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<SessionResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'readme-session-'));
  const file = path.join(dir, 'readme.sh');
  const script = [
    'exec 2>&1',
    'set -euo pipefail',
    ...blocks.map((b) => `printf '\\n%s\\n' '${MARK} ${b.index}@@'\n${b.script}`),
    `printf '\\n%s\\n' '${DONE}'`,
  ].join('\n');
  await writeFile(file, `${script}\n`);
  try {
    const { output, exitCode, signal } = await runBash(file, options);
    const ran = splitByBlock(output, blocks);
    if (exitCode === 0 && output.includes(DONE)) return { ran, failed: null };
    const last = ran.at(-1);
    return { ran, failed: last ? { ...last, exitCode, signal } : { block: blocks[0]!, output, exitCode, signal } };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runBash(file: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }) {
  return new Promise<{ output: string; exitCode: number | null; signal: string | null }>((resolve) => {
    const child = spawn('bash', [file], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Its own process group, so a hung block's children (curl, node) go too.
    const timer = setTimeout(() => {
      output += `\n[the session did not finish within ${options.timeoutMs} ms and was killed]\n`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, options.timeoutMs);
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ output, exitCode, signal });
    });
  });
}

function splitByBlock(output: string, blocks: ReadmeBlock[]): BlockResult[] {
  const parts = output.split(new RegExp(`^${MARK} (\\d+)@@$`, 'm'));
  const ran: BlockResult[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const block = blocks.find((b) => b.index === Number(parts[i]))!;
    ran.push({ block, output: parts[i + 1]!.replace(`\n${DONE}\n`, '').trim() });
  }
  return ran;
}
