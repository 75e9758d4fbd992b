import type { PrivateNatsCluster, PrivateNatsNode } from '@raffle/service-kit/testing/faults';
import { until } from './http-probes.js';

/** The node that leads `stream` now, waiting for one while an election runs. */
export const currentStreamLeader = (cluster: PrivateNatsCluster, stream: string) => until('the stream to have a leader', () => cluster.streamLeader(stream), 10_000);

/** Resolves with the node that leads `stream` once it is another than `dead`. */
export const streamLeaderOtherThan = (cluster: PrivateNatsCluster, stream: string, dead: PrivateNatsNode, timeoutMs = 20_000) =>
  until(
    `a stream leader other than ${dead.name}`,
    async () => {
      const leader = await cluster.streamLeader(stream);
      return leader && leader !== dead ? leader : null;
    },
    timeoutMs,
  );

/** Waits until the stream's followers have all caught up: a second kill then still leaves a majority with every event. */
export async function streamFullyReplicated(cluster: PrivateNatsCluster, stream: string, replicas: number) {
  await cluster.whenJetStreamReady();
  let last: unknown = null;
  await until(
    'every replica of the stream current',
    async () => {
      const info = await cluster.streamInfo(stream);
      last = info?.cluster ?? null;
      const followers = info?.cluster?.replicas ?? [];
      return followers.length === replicas - 1 && followers.every((r) => r.current);
    },
    30_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; last seen: ${JSON.stringify(last)}`);
  });
}
