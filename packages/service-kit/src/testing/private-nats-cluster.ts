import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager, type StreamInfo } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePorts } from './free-port.js';
import { privateServerProcess } from './private-server-process.js';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
/** How long a (re)started cluster may take to elect its JetStream meta leader. */
const JETSTREAM_READY_TIMEOUT_MS = 30_000;

export type PrivateNatsNode = {
  /** The node's server_name: what `streams.info(…).cluster.leader` names. */
  name: string;
  url: string;
  /** SIGTERM: a clean shutdown that keeps its store (its copies of the streams). */
  stop(): Promise<void>;
  /** SIGKILL: the process dies mid-write, as on a crashed host; its store stays for a restart. */
  kill(): Promise<void>;
  /** Starts it again on the same ports and store: it rejoins the cluster and catches up. */
  start(): Promise<void>;
};

export type PrivateNatsCluster = {
  /** Every node's URL, comma-separated: NATS_URL for a service on this cluster. */
  url: string;
  nodes: PrivateNatsNode[];
  /** The node that leads `stream` now (asked of any live node), or null while it has none. */
  streamLeader(stream: string): Promise<PrivateNatsNode | null>;
  /** The stream's info (its cluster: leader, replicas and whether each is current), or null while no node can answer. */
  streamInfo(stream: string): Promise<StreamInfo | null>;
  /** Resolves once the live nodes have a JetStream meta leader (accounts and streams answer). */
  whenJetStreamReady(): Promise<void>;
  /** Stops every node for good and removes the stores. */
  destroy(): Promise<void>;
};

/**
 * `size` nats-servers of one test's own, clustered over loopback routes, with JetStream on each
 * (nats-server 2.9: server_name per node, a cluster block with name, listen and routes, a store
 * directory per node). One node can be stopped, killed and started again while the others go on.
 */
export async function startPrivateNatsCluster(size: number): Promise<PrivateNatsCluster> {
  const root = await mkdtemp(join(tmpdir(), 'nats-cluster-'));
  // Client and route ports reserved together, so no two of them can be the same.
  const ports = await freePorts(size * 2);
  const routePorts = ports.slice(size);
  const nodes: PrivateNatsNode[] = [];
  for (let i = 0; i < size; i++) {
    const name = `n${i + 1}`;
    const storeDir = join(root, name);
    await mkdir(storeDir);
    const configFile = join(root, `${name}.conf`);
    await writeFile(configFile, nodeConfig(name, storeDir, routePorts, i));
    // The client port comes from the command line (the file has none).
    const server = await privateServerProcess(`nats-server ${name}`, NATS_SERVER, (port) => ['-c', configFile, '-a', '127.0.0.1', '-p', String(port)], ports[i]);
    nodes.push({
      name,
      url: `nats://127.0.0.1:${server.port}`,
      stop: () => server.stop('SIGTERM'),
      kill: () => server.stop('SIGKILL'),
      start: server.start,
    });
  }
  const url = nodes.map((n) => n.url).join(',');

  /** Asks the cluster through whichever node answers; `null` when none does. */
  const ask = async <T>(question: (jsm: Awaited<ReturnType<typeof jetstreamManager>>) => Promise<T>): Promise<T> => {
    const nc = await connect({ servers: nodes.map((n) => n.url), timeout: 2000, reconnect: false });
    try {
      return await question(await jetstreamManager(nc, { timeout: 2000 }));
    } finally {
      await nc.close();
    }
  };

  const whenJetStreamReady = async () => {
    const deadline = Date.now() + JETSTREAM_READY_TIMEOUT_MS;
    for (;;) {
      try {
        await ask((jsm) => jsm.getAccountInfo());
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`the NATS cluster has no JetStream meta leader after ${JETSTREAM_READY_TIMEOUT_MS} ms: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };

  const cluster: PrivateNatsCluster = {
    url,
    nodes,
    async streamLeader(stream) {
      const leader = (await cluster.streamInfo(stream))?.cluster?.leader;
      return nodes.find((n) => n.name === leader) ?? null;
    },
    streamInfo: (stream) => ask((jsm) => jsm.streams.info(stream)).catch(() => null),
    whenJetStreamReady,
    async destroy() {
      await Promise.all(nodes.map((n) => n.stop()));
      await rm(root, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(nodes.map((n) => n.start()));
    await whenJetStreamReady();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}

/** One node's config file: its name and store, and routes to every other node. */
function nodeConfig(name: string, storeDir: string, routePorts: number[], index: number): string {
  const routes = routePorts.filter((_, i) => i !== index).map((p) => `    nats-route://127.0.0.1:${p}`);
  return [
    `server_name: ${name}`,
    `jetstream {`,
    `  store_dir: ${JSON.stringify(storeDir)}`,
    `}`,
    `cluster {`,
    `  name: raffle-test`,
    `  listen: 127.0.0.1:${routePorts[index]}`,
    `  routes: [`,
    ...routes,
    `  ]`,
    `}`,
    '',
  ].join('\n');
}
