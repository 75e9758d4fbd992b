import { createConnection, createServer } from 'node:net';

/** A loopback port nobody listens on right now (the kernel picks it). */
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

/**
 * `count` distinct free loopback ports: all held open together before any is released, so the
 * kernel cannot hand the same one out twice (as calling freePort in turn can).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** True when something accepts TCP connections on the loopback port. */
export const acceptsConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Polls until the port accepts connections; fails with `describe()` when `gaveUp()` or the deadline says so. */
export async function waitForListener(port: number, options: { timeoutMs: number; gaveUp: () => boolean; describe: () => string }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (!(await acceptsConnections(port))) {
    if (options.gaveUp()) throw new Error(`exited before listening on ${port}:\n${options.describe()}`);
    if (Date.now() > deadline) throw new Error(`nothing listened on ${port} within ${options.timeoutMs} ms:\n${options.describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
