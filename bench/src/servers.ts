import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { killOnExit } from './children.js';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
/** The data plane's package folder, found the way Node resolves the workspace dependency. */
export const DATA_PLANE_DIR = dirname(dirname(fileURLToPath(import.meta.resolve('@raffle/data-plane'))));
const REPO_ROOT = join(DATA_PLANE_DIR, '..', '..');
const HOST = '127.0.0.1';
const OUTPUT_KEPT = 20_000;

export type ChildServer = { name: string; pid: number; url: string; stop: () => Promise<void>; output: () => string };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number, output: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited before answering ${url}:\n${output()}`);
    const status = await fetch(url, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no 200 from ${url} within ${timeoutMs} ms:\n${output()}`);
}

async function startServer(options: {
  name: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  port: number;
  readyPath: string;
}): Promise<ChildServer> {
  // A clean environment: the server sees exactly the configuration the benchmark states.
  const child = killOnExit(
    spawn(process.execPath, options.args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = `http://${HOST}:${options.port}`;
  const server: ChildServer = {
    name: options.name,
    pid: child.pid!,
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  try {
    await waitForHttp(url + options.readyPath, child, 60_000, () => output);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

export async function startBareFastify(): Promise<ChildServer> {
  const port = await freePort();
  return startServer({
    name: 'bare Fastify',
    args: ['--import', 'tsx', 'src/bare-server.ts'],
    cwd: BENCH_DIR,
    env: { PORT: String(port), NODE_ENV: 'production' },
    port,
    readyPath: '/',
  });
}

/** The durable-write ceiling (durable-write-server.ts) on the benchmark's database, with the data plane's pool size. */
export async function startDurableWriteServer(settings: { databaseUrl: string; poolSize: number }): Promise<ChildServer> {
  const port = await freePort();
  return startServer({
    name: 'durable-write ceiling',
    args: ['--import', 'tsx', 'src/durable-write-server.ts'],
    cwd: BENCH_DIR,
    env: { PORT: String(port), NODE_ENV: 'production', DATABASE_URL: settings.databaseUrl, DATABASE_POOL_SIZE: String(settings.poolSize) },
    port,
    readyPath: '/health',
  });
}

/**
 * Builds the data plane and its workspace dependencies (compiled JS is what production runs).
 * Returns 'tsx' when the build fails, so a broken build elsewhere still lets the benchmark run.
 */
export async function prepareDataPlane(mode: 'dist' | 'tsx', log: (line: string) => void): Promise<'dist' | 'tsx'> {
  if (mode === 'tsx') return 'tsx';
  try {
    await promisify(execFile)('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@raffle/data-plane', '--output-logs=errors-only'], {
      cwd: REPO_ROOT,
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    });
    if (!existsSync(join(DATA_PLANE_DIR, 'dist', 'server.js'))) throw new Error('dist/server.js missing after the build');
    return 'dist';
  } catch (error) {
    const detail = error as { stdout?: string; stderr?: string; message: string };
    log(`data plane: build failed, falling back to tsx:\n${(detail.stdout ?? '') + (detail.stderr ?? '') || detail.message}`.slice(0, 4000));
    return 'tsx';
  }
}

export type DataPlaneSettings = {
  mode: 'dist' | 'tsx';
  /** More settings (the token-gated drop's CHAIN_RPC_URLS). */
  env?: Record<string, string>;
  databaseUrl: string;
  /** Where its routed reads go (DATABASE_READ_URL, a streaming replica of databaseUrl), with a pool of poolSize. */
  readDatabaseUrl?: string;
  /** Tells two data planes of one run apart in logs and errors. */
  name?: string;
  cursorSecret: string;
  poolSize: number;
  /** Where V8 writes a CPU profile when the service exits (profiling slows it slightly). */
  profileDir?: string;
  /** Take the client IP from X-Forwarded-For, so one load generator can stand for many entrants. */
  trustProxy?: boolean;
};

/** The real service, configured for production except that no rate limit can trip under load. */
export async function startDataPlane(settings: DataPlaneSettings): Promise<ChildServer> {
  const port = await freePort();
  const unlimited = '100000000';
  return startServer({
    name: settings.name ?? 'data plane',
    args: [
      ...(settings.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.profileDir}`] : []),
      ...(settings.mode === 'dist' ? ['dist/server.js'] : ['--conditions=development', '--import', 'tsx', 'src/server.ts']),
    ],
    cwd: DATA_PLANE_DIR,
    env: {
      NODE_ENV: 'production',
      HOST,
      PORT: String(port),
      DATABASE_URL: settings.databaseUrl,
      DATABASE_POOL_SIZE: String(settings.poolSize),
      ...(settings.readDatabaseUrl ? { DATABASE_READ_URL: settings.readDatabaseUrl, DATABASE_READ_POOL_SIZE: String(settings.poolSize) } : {}),
      NATS_URL: 'nats://127.0.0.1:4222',
      LOG_LEVEL: 'warn',
      CURSOR_SECRET: settings.cursorSecret,
      IP_HASH_SECRET: randomBytes(32).toString('hex'),
      TRUST_PROXY: String(settings.trustProxy ?? false),
      RATE_LIMIT_PERSONAL_MAX: unlimited,
      RATE_LIMIT_WORKSPACE_MAX: unlimited,
      RATE_LIMIT_ANONYMOUS_MAX: unlimited,
      ...settings.env,
    },
    port,
    readyPath: '/health/ready',
  });
}
