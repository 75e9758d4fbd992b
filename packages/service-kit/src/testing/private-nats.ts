import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateServerProcess } from './private-server-process.js';

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
  const storeDir = await mkdtemp(join(tmpdir(), 'nats-fault-'));
  // nats-server opens its client port once JetStream has recovered its store, so a start that
  // resolves has the streams back.
  const server = await privateServerProcess('nats-server', NATS_SERVER, (port) => ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir]);
  const stop = () => server.stop('SIGTERM');

  await server.start();
  return {
    url: `nats://127.0.0.1:${server.port}`,
    start: server.start,
    stop,
    async destroy() {
      await stop();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}
