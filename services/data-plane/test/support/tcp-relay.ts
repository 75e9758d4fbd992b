import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on a fixed local port to a target port that can change: the public URL of an RPC
 * whose node is stopped and started again elsewhere. `close` drops every connection (the RPC is
 * gone); `open` listens again on the same port, toward the node now given.
 */
export function tcpRelay(port: number) {
  let server: Server | null = null;
  const sockets = new Set<Socket>();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    open(targetPort: number): Promise<void> {
      server = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
      return new Promise((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
    },
    close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      const closing = server;
      server = null;
      return closing ? new Promise((resolve) => closing.close(() => resolve())) : Promise.resolve();
    },
  };
}
