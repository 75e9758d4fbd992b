import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

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
    const deadline = Date.now() + 10_000;
    // nats-server opens its client port once JetStream has recovered its store.
    while (!(await accepts(port))) {
      if (proc.exitCode !== null) throw new Error(`nats-server exited (${proc.exitCode}):\n${output}`);
      if (Date.now() > deadline) throw new Error(`nats-server did not listen on ${port} within 10 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const stop = async () => {
    const proc = child;
    if (!proc) return;
    child = null;
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const force = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
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
