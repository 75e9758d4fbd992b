import { jetstream, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateNatsCluster, type PrivateNatsCluster } from '../src/testing/private-nats-cluster.js';

let cluster: PrivateNatsCluster;
let nc: NatsConnection;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  cluster = await startPrivateNatsCluster(3);
  nc = await connect({ servers: cluster.nodes.map((n) => n.url), reconnectTimeWait: 200 });
});
afterAll(async () => {
  await nc?.close();
  await cluster?.destroy();
});

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('a private three-node NATS cluster', () => {
  it('keeps a three-replica stream through a kill -9 of its leader, and the node rejoins', async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'CLUSTER_T', subjects: ['cluster-t.>'], retention: RetentionPolicy.Limits, storage: StorageType.File, num_replicas: 3 });
    const js = jetstream(nc);
    for (let i = 0; i < 10; i++) await js.publish('cluster-t.a', `m${i}`, { msgID: `m${i}` });

    const leader = await until('a stream leader', () => cluster.streamLeader('CLUSTER_T'));
    expect(cluster.nodes.map((n) => n.name)).toContain(leader.name);
    await leader.kill();
    const next = await until('another leader', async () => {
      const now = await cluster.streamLeader('CLUSTER_T');
      return now && now !== leader ? now : null;
    });
    expect(next.name).not.toBe(leader.name);

    // Every message stored before the kill is still there, and the stream takes new ones.
    await until('a publish on the new leader', async () => (await js.publish('cluster-t.a', 'after', { msgID: 'after', timeout: 2000 })).seq);
    expect((await jsm.streams.info('CLUSTER_T')).state.messages).toBe(11);

    await leader.start();
    await cluster.whenJetStreamReady();
    const info = await until('the restarted node current again', async () => {
      const i = await jsm.streams.info('CLUSTER_T');
      return i.cluster?.replicas?.length === 2 && i.cluster.replicas.every((r) => r.current) ? i : null;
    });
    expect(info.cluster?.replicas?.map((r) => r.name)).toContain(leader.name);
  });
});
