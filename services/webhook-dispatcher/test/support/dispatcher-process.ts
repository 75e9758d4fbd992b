import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { captureLogLine } from './log-scan.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = fileURLToPath(new URL('./dispatcher-main.ts', import.meta.url));

export type DispatcherProcess = {
  name: string;
  pid: number;
  /** Every JSON log line so far, parsed (non-JSON lines are kept as { msg: line }). */
  logs(): Array<Record<string, unknown> & { msg?: string }>;
  output(): string;
  /** Resolves with the first log line whose msg matches (rejects at the deadline or if the process exits). */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves once the process has exited, with its exit code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM (graceful drain), SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
};

/**
 * The dispatcher as a child process (sources through tsx), so a test can SIGKILL it. The
 * environment is exactly what the test states, on top of a test-friendly baseline. The baseline
 * keeps the production delivery lease: how soon a dead or failing worker's deliveries come back
 * is what these scenarios measure, and a lease shortened for the test would measure nothing.
 */
export async function startDispatcherProcess(name: string, env: Record<string, string>): Promise<DispatcherProcess> {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', ENTRY], {
    cwd: PACKAGE_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      DELIVERY_POLL_INTERVAL_MS: '100',
      RELAY_POLL_INTERVAL_MS: '100',
      DELIVERY_TIMEOUT_MS: '5000',
      DRAIN_TIMEOUT_MS: '2000',
      DATABASE_POOL_SIZE: '4',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const lines: Array<Record<string, unknown> & { msg?: string }> = [];
  const watchers: { pattern: RegExp; resolve: (line: Record<string, unknown>) => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    partial += text;
    const complete = partial.split('\n');
    partial = complete.pop()!;
    for (const raw of complete) {
      if (!raw.trim()) continue;
      // The file's log scan then covers the children too: no secret may reach their logs either.
      captureLogLine(raw);
      let line: Record<string, unknown> & { msg?: string };
      try {
        line = JSON.parse(raw) as typeof line;
      } catch {
        line = { msg: raw };
      }
      lines.push(line);
      for (const w of watchers.filter((w) => typeof line.msg === 'string' && w.pattern.test(line.msg))) {
        watchers.splice(watchers.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const waitForLog = (pattern: RegExp, timeoutMs = 30_000) => {
    const seen = lines.find((l) => typeof l.msg === 'string' && pattern.test(l.msg));
    if (seen) return Promise.resolve(seen);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        reject(new Error(`${name}: ${why} before logging ${pattern}:\n${output.slice(-4000)}`));
      };
      const timer = setTimeout(() => fail(`no such line within ${timeoutMs} ms`), timeoutMs);
      void exited.then(({ code, signal }) => fail(`exited (${code ?? signal})`));
      watchers.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
    });
  };

  const handle: DispatcherProcess = {
    name,
    pid: child.pid!,
    logs: () => lines,
    output: () => output,
    waitForLog,
    exited,
    kill: (signal) => void child.kill(signal),
    async stop(timeoutMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(force);
    },
  };
  await waitForLog(/^Server listening at/, 60_000);
  return handle;
}
