import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitForListener } from './free-port.js';
import { stopChild } from './stop-child.js';

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? 'redis-server';

export type PrivateRedis = {
  url: string;
  /** SIGTERM is a clean shutdown, SIGKILL a crash; either way the counters are gone (nothing is persisted). */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
  destroy(): Promise<void>;
};

/**
 * A redis-server of one test's own, in memory only, so an outage can be made without touching
 * the machine's shared server.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  let output = '';

  const start = async () => {
    if (child) throw new Error('the private redis-server is already running');
    const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', '/tmp'];
    const proc = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    await waitForListener(port, { timeoutMs: 10_000, gaveUp: () => proc.exitCode !== null, describe: () => output });
  };

  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    const proc = child;
    child = null;
    if (proc) await stopChild(proc, signal);
  };

  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop, destroy: () => stop('SIGKILL') };
}
