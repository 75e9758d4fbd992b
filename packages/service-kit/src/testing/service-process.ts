import { spawn } from 'node:child_process';
import { dirname } from 'node:path';

export type LogLine = Record<string, unknown> & { msg?: string };

export type ServiceProcess = {
  name: string;
  pid: number;
  /** http://127.0.0.1:<port>, read from the "Server listening at" line. */
  origin: string;
  /** Every log line so far, parsed (non-JSON lines are kept as { msg: line }). */
  logs(): LogLine[];
  /** stdout and stderr, for failure messages. */
  output(): string;
  /** Null while the process runs. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | null;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
};

export type ServiceProcessOptions = {
  name: string;
  /** The service's `src/server.ts` (run through tsx on the development condition, as `pnpm start` does). */
  entry: string;
  env: Record<string, string>;
  /** Each raw stdout line, so the caller's log scan covers the child too. */
  onLogLine?: (raw: string) => void;
  startTimeoutMs?: number;
};

/**
 * A service as a real child process, the way it runs in production (its own event loop, its own
 * exit), so a fault test can see it survive or die. The environment is exactly what the test
 * states, on top of PATH and HOME.
 */
export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', options.entry], {
    cwd: dirname(dirname(options.entry)),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', HOST: '127.0.0.1', PORT: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const lines: LogLine[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-200_000);
    partial += text;
    const complete = partial.split('\n');
    partial = complete.pop()!;
    for (const raw of complete.filter((l) => l.trim())) {
      options.onLogLine?.(raw);
      try {
        lines.push(JSON.parse(raw) as LogLine);
      } catch {
        lines.push({ msg: raw });
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve((exit = { code, signal }))),
  );

  // A service that never listened is nobody's to kill later (the caller never got its handle):
  // kill it here, or it outlives the test file and loads the machine for everyone else.
  const origin = await listeningOrigin(lines, () => exit, () => output, options.startTimeoutMs ?? 60_000).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    name: options.name,
    pid: child.pid!,
    origin,
    logs: () => lines,
    output: () => output,
    exit: () => exit,
    exited,
    kill: (signal) => void child.kill(signal),
    async stop(timeoutMs = 15_000) {
      if (exit) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(force);
    },
  };
}

async function listeningOrigin(lines: LogLine[], exit: () => unknown, output: () => string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('Server listening at http://127.0.0.1:'));
    if (line) return (line.msg as string).slice('Server listening at '.length);
    if (exit()) throw new Error(`the service exited before listening:\n${output().slice(-4000)}`);
    if (Date.now() > deadline) throw new Error(`the service did not listen within ${timeoutMs} ms:\n${output().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
