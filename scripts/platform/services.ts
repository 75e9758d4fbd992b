import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeWithPrefix } from './prefixed-output.js';

export type ServiceDefinition = {
  name: string;
  /** The service's server.ts, relative to the repository root. */
  entry: string;
  /** The variable that overrides the service's port, and its port otherwise. */
  port: { variable: string; default: number };
  /** Settings only this service reads. */
  env?: Record<string, string>;
};

export type RunningService = {
  name: string;
  url: string;
  child: ChildProcess;
  /** The exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals | null>;
};

const STOP_GRACE_MS = 15_000;

export const serviceExists = (repoRoot: string, service: ServiceDefinition): boolean =>
  existsSync(path.join(repoRoot, service.entry));

export function servicePort(service: ServiceDefinition, env: NodeJS.ProcessEnv): number {
  return Number(env[service.port.variable] ?? service.port.default);
}

export type StartServiceOptions = {
  repoRoot: string;
  env: Record<string, string>;
  host: string;
  labelWidth: number;
  /** The port to listen on; otherwise the service's variable or its default. */
  port?: number;
  /** Where its prefixed log lines go; the terminal otherwise. */
  output?: { stdout: Writable; stderr: Writable };
};

export function startService(service: ServiceDefinition, options: StartServiceOptions): RunningService {
  const port = options.port ?? servicePort(service, process.env);
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', service.entry], {
    cwd: options.repoRoot,
    env: { ...process.env, ...options.env, ...service.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a terminal Ctrl-C then reaches only the start command, which stops
    // each service exactly once (close-with-grace treats a second signal as "exit now").
    detached: true,
  });
  const prefix = `${service.name.padEnd(options.labelWidth)} |`;
  const output = options.output ?? { stdout: process.stdout, stderr: process.stderr };
  pipeWithPrefix(child.stdout!, output.stdout, prefix);
  pipeWithPrefix(child.stderr!, output.stderr, prefix);
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal));
    child.once('error', (error) => {
      output.stderr.write(`${prefix} could not start: ${error.message}\n`);
      resolve(null);
    });
  });
  return { name: service.name, url: `http://${options.host}:${port}`, child, exited };
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Signals the whole process group, so anything the service spawned goes too. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!child.pid || !isRunning(child)) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone between the check and the kill.
  }
}

/** SIGTERM to every service, then SIGKILL to any still running after the grace period. */
export async function stopServices(services: RunningService[]): Promise<void> {
  for (const s of services) signalGroup(s.child, 'SIGTERM');
  const timer = setTimeout(() => {
    for (const s of services) signalGroup(s.child, 'SIGKILL');
  }, STOP_GRACE_MS);
  await Promise.all(services.map((s) => s.exited));
  clearTimeout(timer);
}

/** For an exit we did not plan (a crash of the start command itself): leave no service behind. */
export function killServicesNow(services: RunningService[]): void {
  for (const s of services) signalGroup(s.child, 'SIGKILL');
}
