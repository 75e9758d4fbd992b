import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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
        servers: options.url,
        name: options.name,
        timeout: 2000,
        reconnect: true,
        maxReconnectAttempts: -1,
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
