import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForListener } from './free-port.js';
import { stopChild } from './stop-child.js';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

export type PrivateNats = {
  url: string;
  /** Stops the server (SIGTERM, a clean shutdown that keeps the JetStream store). */
  stop(): Promise<void>;
  /** Starts it again on the same port and store directory: streams, consumers and messages come back. */
  start(): Promise<void>;
  /** Stops it for good and removes its store. */
  destroy(): Promise<void>;
};

/**
 * A nats-server with JetStream of one test's own: it can be stopped and restarted without
 * touching the machine's shared server that other test files use.
 */
export async function startPrivateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const storeDir = await mkdtemp(join(tmpdir(), 'nats-fault-'));
  let child: ChildProcess | null = null;
  let output = '';

  const start = async () => {
    if (child) throw new Error('the private nats-server is already running');
    const proc = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    // nats-server opens its client port once JetStream has recovered its store.
    await waitForListener(port, { timeoutMs: 10_000, gaveUp: () => proc.exitCode !== null, describe: () => output });
  };

  const stop = async () => {
    const proc = child;
    child = null;
    if (proc) await stopChild(proc, 'SIGTERM');
  };

  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    stop,
    async destroy() {
      await stop();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}
