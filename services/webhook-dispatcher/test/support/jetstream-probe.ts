import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { consumerConfig, ensureStream, streamConfig, type StreamNames } from '../../src/consumer/stream-setup.js';

/**
 * Creates the stream and consumer as the dispatcher would, except for a short ack_wait: a
 * consumer that dies holding unacked messages then has them redelivered in seconds rather than
 * the production 30 s, which keeps the fault tests short. Everything else is production's.
 */
export async function createStreamForFaults(url: string, names: StreamNames, ackWaitMs: number): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add(streamConfig(names));
    await jsm.consumers.add(names.stream, { ...consumerConfig(names), ack_wait: ackWaitMs * 1_000_000 });
    await ensureStream(jsm, names);
  } finally {
    await nc.close();
  }
}

/** How many messages the stream holds: with the duplicate window, one per event however often it was published. */
export async function streamMessageCount(url: string, stream: string): Promise<number> {
  const nc = await connect({ servers: url });
  try {
    const info = await (await jetstreamManager(nc)).streams.info(stream);
    return info.state.messages;
  } finally {
    await nc.close();
  }
}

export const streamNamesOf = (env: { NATS_STREAM: string; NATS_SUBJECT_PREFIX: string; NATS_CONSUMER: string }): StreamNames => ({
  stream: env.NATS_STREAM,
  subjectPrefix: env.NATS_SUBJECT_PREFIX,
  consumer: env.NATS_CONSUMER,
});
