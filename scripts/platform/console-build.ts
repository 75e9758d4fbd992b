import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What the console's build reads; when any of it is newer than dist/public/index.html the build is stale. */
const CONSOLE_INPUTS = ['src', 'index.html', 'vite.config.ts', 'package.json', '../../packages/sdk/src'];

function newestModification(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestModification(path.join(entry, child)));
  return newest;
}

export function consoleDir(repoRoot: string): string {
  return path.join(repoRoot, 'services', 'console');
}

/** True when dist is missing, or older than any source it is built from. */
export function consoleBuildIsStale(repoRoot: string): boolean {
  const dir = consoleDir(repoRoot);
  const index = path.join(dir, 'dist', 'public', 'index.html');
  if (!existsSync(index)) return true;
  const builtAt = statSync(index).mtimeMs;
  return CONSOLE_INPUTS.some((input) => newestModification(path.join(dir, input)) > builtAt);
}

/**
 * Vite's production build of the console into outDir (dist/public by default). NODE_ENV is forced to
 * production: under vitest it is "test", which would bundle React's development build.
 */
export async function buildConsole(repoRoot: string, outDir?: string): Promise<void> {
  const dir = consoleDir(repoRoot);
  const vite = path.join(dir, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = [vite, 'build', '--logLevel', 'warn', ...(outDir ? ['--outDir', outDir, '--emptyOutDir'] : [])];
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`the console build failed (exit ${code}):\n${output.join('')}`);
}

/**
 * The console server serves static files, so they must be built before it starts. Vite builds it
 * in a few seconds; the build is skipped when dist is already current.
 */
export async function ensureConsoleBuilt(repoRoot: string, say: (message: string) => void = () => {}): Promise<void> {
  if (!consoleBuildIsStale(repoRoot)) return;
  say('building the developer console (vite build)');
  await buildConsole(repoRoot);
  say('developer console built');
}
