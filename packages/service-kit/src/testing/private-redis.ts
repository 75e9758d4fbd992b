import { privateServerProcess } from './private-server-process.js';

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
  const argsFor = (port: number) => ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', '/tmp'];
  const server = await privateServerProcess('redis-server', REDIS_SERVER, argsFor);
  const stop = (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => server.stop(signal);

  await server.start();
  return { url: `redis://127.0.0.1:${server.port}`, start: server.start, stop, destroy: () => stop('SIGKILL') };
}
