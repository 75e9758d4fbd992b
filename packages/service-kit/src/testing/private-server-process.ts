import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitForListener } from './free-port.js';
import { stopChild } from './stop-child.js';

export type PrivateServerProcess = {
  /** The loopback port it listens on; the same after every restart, so clients reconnect to it. */
  port: number;
  /** Starts the server and resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it with `signal` and waits for the exit; does nothing when it is not running. */
  stop(signal: NodeJS.Signals): Promise<void>;
  /** The tail of what it printed: why it failed, for an error message. */
  recentOutput(): string;
};

/** Of the server's output, only the tail is kept: enough to say why it did not start. */
const OUTPUT_TAIL_CHARS = 8000;
const START_TIMEOUT_MS = 10_000;

export type PrivateServerOptions = {
  /** Runs it as this OS user (uid and gid): servers that refuse to run as root (Postgres, PgBouncer). */
  user?: { uid: number; gid: number };
  /** How long it may take to listen; default 10 s. */
  startTimeoutMs?: number;
};

/**
 * A server binary of one test's own on a free loopback port, started and stopped on demand
 * (not started yet when this resolves). `argsFor` gives its command line for that port. Outages
 * made with it never touch the machine's shared servers that other test files use. `reservedPort` is one
 * the caller reserved with others (see freePorts); else a free one is picked here.
 */
export async function privateServerProcess(
  name: string,
  binary: string,
  argsFor: (port: number) => string[],
  reservedPort?: number,
  options: PrivateServerOptions = {},
): Promise<PrivateServerProcess> {
  const port = reservedPort ?? (await freePort());
  let child: ChildProcess | null = null;
  let output = '';

  const start = async () => {
    if (child) throw new Error(`the private ${name} is already running`);
    const proc = spawn(binary, argsFor(port), { stdio: ['ignore', 'pipe', 'pipe'], ...(options.user ?? {}) });
    child = proc;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    await waitForListener(port, { timeoutMs: options.startTimeoutMs ?? START_TIMEOUT_MS, gaveUp: () => proc.exitCode !== null, describe: () => output });
  };

  const stop = async (signal: NodeJS.Signals) => {
    const proc = child;
    child = null;
    if (proc) await stopChild(proc, signal);
  };

  return { port, start, stop, recentOutput: () => output };
}
