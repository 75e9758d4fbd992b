import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runMigrations } from '@raffle/db';
import postgres from 'postgres';
import { killOnExit } from './children.js';
import { freePort } from './servers.js';
import type { SinkMessage } from './webhook-sink.js';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = join(BENCH_DIR, '..');
export const DISPATCHER_DIR = join(REPO_ROOT, 'services', 'webhook-dispatcher');
const SINK_SCRIPT = fileURLToPath(new URL('./webhook-sink.ts', import.meta.url));
const HOST = '127.0.0.1';
const OUTPUT_KEPT = 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Child = { name: string; pid: number; output: () => string; stop: (graceMs?: number) => Promise<void> };

function track(name: string, child: ChildProcess): Child & { exited: Promise<void> } {
  killOnExit(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    pid: child.pid!,
    output: () => output,
    exited,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A database of the benchmark's own, created empty and migrated as production's is; dropped afterwards. */
export async function freshDatabase(postgresUrl: string, name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = postgres(`${postgresUrl}/postgres`, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = `${postgresUrl}/${name}`;
  await runMigrations(url);
  return {
    url,
    drop: async () => {
      const sql = postgres(`${postgresUrl}/postgres`, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: HOST, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** A nats-server with JetStream of the run's own (fresh store, removed afterwards): the shared one stays untouched. */
export async function startPrivateNats(binary: string): Promise<Child & { url: string }> {
  const port = await freePort();
  const storeDir = await mkdtemp(join(tmpdir(), 'bench-webhooks-nats-'));
  const child = track('nats-server', spawn(binary, ['-a', HOST, '-p', String(port), '-js', '-sd', storeDir], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (Date.now() > deadline) {
      await child.stop();
      throw new Error(`nats-server did not listen within 10 s:\n${child.output()}`);
    }
    await sleep(50);
  }
  return {
    ...child,
    url: `nats://${HOST}:${port}`,
    async stop() {
      await child.stop();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}

/** Builds the dispatcher and its workspace dependencies; 'tsx' when the build fails, so the benchmark still runs. */
export async function prepareDispatcher(mode: 'dist' | 'tsx', log: (line: string) => void): Promise<'dist' | 'tsx'> {
  if (mode === 'tsx') return 'tsx';
  try {
    await promisify(execFile)('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@raffle/webhook-dispatcher', '--output-logs=errors-only'], {
      cwd: REPO_ROOT,
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    });
    if (!existsSync(join(DISPATCHER_DIR, 'dist', 'server.js'))) throw new Error('dist/server.js missing after the build');
    return 'dist';
  } catch (error) {
    const detail = error as { stdout?: string; stderr?: string; message: string };
    log(`dispatcher: build failed, falling back to tsx:\n${(detail.stdout ?? '') + (detail.stderr ?? '') || detail.message}`.slice(0, 4000));
    return 'tsx';
  }
}

export type DispatcherSettings = {
  mode: 'dist' | 'tsx';
  /** Run this compiled server.js instead of the package's dist/server.js. */
  server?: string | null;
  databaseUrl: string;
  natsUrl: string;
  /** Stream, subject prefix and durable consumer of this run. */
  names: { stream: string; subjectPrefix: string; consumer: string };
  profileDir?: string;
  /** Anything else, e.g. DELIVERY_CONCURRENCY; unset variables keep the service's defaults. */
  env?: Record<string, string>;
};

/**
 * The dispatcher with its production defaults (concurrency, timeouts, lease, batch sizes), except
 * that it may POST to http://127.0.0.1, which NODE_ENV=production forbids: it runs as development,
 * which changes nothing else (logs are JSON: stdout is not a TTY).
 */
export async function startDispatcher(settings: DispatcherSettings): Promise<Child> {
  const port = await freePort();
  const child = track(
    'webhook dispatcher',
    spawn(
      process.execPath,
      [
        ...(settings.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.profileDir}`] : []),
        ...(settings.server ? [settings.server] : settings.mode === 'dist' ? ['dist/server.js'] : ['--conditions=development', '--import', 'tsx', 'src/server.ts']),
      ],
      {
        cwd: DISPATCHER_DIR,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          NODE_ENV: 'development',
          HOST,
          PORT: String(port),
          DATABASE_URL: settings.databaseUrl,
          NATS_URL: settings.natsUrl,
          NATS_STREAM: settings.names.stream,
          NATS_SUBJECT_PREFIX: settings.names.subjectPrefix,
          NATS_CONSUMER: settings.names.consumer,
          LOG_LEVEL: 'warn',
          WEBHOOK_ALLOW_HTTP: 'true',
          WEBHOOK_ALLOWED_HOSTS: HOST,
          ...settings.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(`http://${HOST}:${port}/health/ready`, { signal: AbortSignal.timeout(1000) }).then(
      async (r) => ((await r.json()) as { checks?: { nats?: string } }).checks?.nats === 'ok' && r.status === 200,
      () => false,
    );
    if (status) break;
    if (Date.now() > deadline) {
      await child.stop();
      throw new Error(`the dispatcher was not ready (database and NATS) within 60 s:\n${child.output()}`);
    }
    await sleep(200);
  }
  return child;
}

export type Sinks = Child & {
  healthyUrls: string[];
  deadUrls: string[];
  report: () => Promise<Extract<SinkMessage, { type: 'report' }>>;
  /** Distinct (endpoint, webhook-id) pairs the healthy endpoints received so far. */
  distinctReceived: () => Promise<number>;
};

/** The receivers (src/webhook-sink.ts) in their own process. */
export async function startSinks(healthy: number, dead: number): Promise<Sinks> {
  const proc = spawn(process.execPath, ['--import', 'tsx', SINK_SCRIPT], {
    cwd: BENCH_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SINK_HEALTHY: String(healthy), SINK_DEAD: String(dead) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  const child = track('sink', proc);
  const ready = await new Promise<Extract<SinkMessage, { type: 'ready' }>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sink did not start within 30 s:\n${child.output()}`)), 30_000);
    proc.on('message', (message: SinkMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message);
      }
    });
    proc.once('exit', () => reject(new Error(`the sink exited:\n${child.output()}`)));
  });
  const url = (port: number) => `http://${HOST}:${port}/hook`;
  return {
    ...child,
    healthyUrls: ready.healthy.map(url),
    deadUrls: ready.dead.map(url),
    report: () => ask(proc, 'report'),
    distinctReceived: async () => (await ask(proc, 'count')).distinct,
  };
}

/** Sends the sink one request and resolves with its answer of the same type. */
function ask<T extends 'report' | 'count'>(proc: ReturnType<typeof spawn>, type: T): Promise<Extract<SinkMessage, { type: T }>> {
  return new Promise((resolve) => {
    const onMessage = (message: SinkMessage) => {
      if (message.type !== type) return;
      proc.off('message', onMessage);
      resolve(message as Extract<SinkMessage, { type: T }>);
    };
    proc.on('message', onMessage);
    proc.send({ type });
  });
}
