import net from 'node:net';

/** What postgres.js passes its `socket` option: the parsed URL's hosts and ports, or a Unix socket path. */
type SocketTarget = { host: string[]; port: number[]; path?: string | false };

export type PoolerSockets = {
  /** postgres.js's `socket` option: a connecting socket it writes to at once (Node queues the writes until connected). */
  connect: (target: SocketTarget) => net.Socket;
  /**
   * Closes every socket the pool has open. postgres.js then rejects each query sent on one with
   * `CONNECTION_CLOSED` (a connection error: 503) and reconnects; PgBouncer drops a client that
   * closed while waiting for a server with its queued statements unsent (decision 0041).
   */
  closeAll: () => void;
};

/**
 * The sockets of a pool that goes through a transaction pooler, kept so that statements queued in
 * the pooler can be taken back (pooler-stall-release.ts): postgres.js gives no handle on its
 * connections. Hosts are tried in turn, as postgres.js does itself; its connect timeout, keepalive
 * and TLS apply to these sockets as to its own (closing the plain socket under a TLS one closes both).
 */
export function poolerSockets(): PoolerSockets {
  const open = new Set<net.Socket>();
  let next = 0;
  return {
    connect(target) {
      const index = next++ % target.host.length;
      const host = target.host[index]!;
      const port = target.port[index] ?? target.port[0]!;
      const socket = target.path ? net.connect(target.path) : net.connect(port, host);
      // As postgres.js labels its own: TLS names the server (SNI, verify-full) after `host`.
      Object.assign(socket, { host, port });
      open.add(socket);
      socket.once('close', () => open.delete(socket));
      return socket;
    },
    closeAll() {
      for (const socket of open) socket.destroy();
    },
  };
}
