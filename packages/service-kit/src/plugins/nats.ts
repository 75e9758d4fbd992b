import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { natsServers } from '../nats-servers.js';

export type NatsHandle = {
  /** The live connection, or null while NATS is unreachable. */
  connection: () => NatsConnection | null;
  isConnected: () => boolean;
  /**
   * Runs `setup` with the connection once it exists (at once if it already does). Core
   * subscriptions made there survive the client's reconnects.
   */
  whenConnected: (setup: (connection: NatsConnection) => void) => void;
};

const RETRY_DELAY_MS = 2000;

/**
 * How the client finds its way back when its server goes (decision 0035). A node that was just
 * tried waits this long before the next try; the other nodes of NATS_URL (and those the cluster
 * announced) are tried at once, so a killed node costs a reconnect, not this wait.
 */
const RECONNECT_TIME_WAIT_MS = 1000;
/**
 * A node that dies with its host (no FIN, no RST) is noticed only by unanswered pings: every
 * 10 s, two missed, so the client moves on within about 30 s instead of the library's 4 to 6
 * minutes. A killed process closes its sockets and is noticed at once either way.
 */
const PING_INTERVAL_MS = 10_000;
const MAX_PINGS_OUT = 2;

/**
 * `options.url` is NATS_URL: one server or a comma-separated list of a cluster's nodes.
 * NATS is optional at start: the service serves without it, logs one line saying so, and
 * keeps trying in the background. Once connected, the client's own reconnect loop takes over.
 */
async function natsPlugin(app: FastifyInstance, options: { url: string; name: string }) {
  let connection: NatsConnection | null = null;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let warned = false;
  let up = false;
  const pendingSetups: ((connection: NatsConnection) => void)[] = [];

  const attempt = async () => {
    try {
      const nc = await connect({
        servers: natsServers(options.url),
        name: options.name,
        timeout: 2000,
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: RECONNECT_TIME_WAIT_MS,
        pingInterval: PING_INTERVAL_MS,
        maxPingOut: MAX_PINGS_OUT,
      });
      if (stopped) return void (await nc.close());
      connection = nc;
      for (const setup of pendingSetups.splice(0)) setup(nc);
      up = true;
      void (async () => {
        for await (const status of nc.status()) {
          if (status.type === 'disconnect') up = false;
          else if (status.type === 'reconnect') up = true;
        }
      })();
      if (warned) app.log.info({ nats: options.url }, 'NATS connected');
    } catch (error) {
      if (!warned) {
        warned = true;
        app.log.warn(
          { nats: options.url, reason: (error as Error).message },
          'NATS is unreachable: serving without it and retrying in the background',
        );
      }
      if (!stopped) retryTimer = setTimeout(() => void attempt(), RETRY_DELAY_MS);
    }
  };
  await attempt();

  app.decorate('nats', {
    connection: () => connection,
    isConnected: () => up && connection !== null && !connection.isClosed(),
    whenConnected: (setup) => {
      if (connection) setup(connection);
      else pendingSetups.push(setup);
    },
  } satisfies NatsHandle);

  app.addHook('onClose', async () => {
    stopped = true;
    clearTimeout(retryTimer);
    if (connection && !connection.isClosed()) await connection.drain().catch(() => connection?.close());
  });
}

export default fp(natsPlugin, { name: 'nats' });
