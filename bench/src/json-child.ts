import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { killOnExit } from './children.js';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs `script` (a source file of the benchmark, through tsx, as the benchmark runs its own code)
 * in a fresh Node process with `input` as its JSON argument, and resolves with the JSON of its
 * one stdout line starting with `prefix`. A child that exits badly, prints no such line or runs
 * past `timeoutSeconds` (then killed) rejects with what it printed.
 */
export function runJsonChild<T>(script: string, input: unknown, options: { prefix: string; timeoutSeconds: number; nodeArgs?: string[]; label: string }): Promise<T> {
  const args = ['--conditions=development', '--import', 'tsx', ...(options.nodeArgs ?? []), script, JSON.stringify(input)];
  const child = killOnExit(spawn(process.execPath, args, { cwd: BENCH_DIR, stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const guard = setTimeout(() => child.kill('SIGKILL'), options.timeoutSeconds * 1000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(guard);
      const line = stdout.split('\n').find((l) => l.startsWith(`${options.prefix} `));
      if (code !== 0 || !line) return reject(new Error(`${options.label} exited with ${code ?? signal}:\n${stdout}\n${stderr}`));
      resolve(JSON.parse(line.slice(options.prefix.length + 1)) as T);
    });
  });
}
