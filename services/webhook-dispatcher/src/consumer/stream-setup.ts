import { AckPolicy, DeliverPolicy, DiscardPolicy, JetStreamApiError, ReplayPolicy, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';

/** JetStream durations are nanoseconds. */
const nanos = (ms: number) => ms * 1_000_000;

/** Where events flow: production uses the defaults of @raffle/contracts; each test run its own. */
export type StreamNames = { stream: string; subjectPrefix: string; consumer: string };

/**
 * How many nodes keep a copy of every event (NATS_STREAM_REPLICAS): 1 on a single server, 3 on a
 * three-node cluster, so the stream survives the loss of any one node (decision 0035).
 */
export const DEFAULT_STREAM_REPLICAS = 1;
/** JetStream keeps at most 5 copies of a stream. */
export const MAX_STREAM_REPLICAS = 5;

/**
 * The stream and consumer as infra/nats/*.json declares them (a test keeps the two equal). Only
 * JetStream features of NATS 2.9 are used: one filter subject, a duplicate window, explicit ack.
 * The consumer declares no replica count of its own: it inherits the stream's.
 */
export const streamConfig = (names: StreamNames, replicas = DEFAULT_STREAM_REPLICAS) => ({
  name: names.stream,
  subjects: [`${names.subjectPrefix}.>`],
  retention: RetentionPolicy.Limits,
  storage: StorageType.File,
  discard: DiscardPolicy.Old,
  num_replicas: replicas,
  max_age: nanos(7 * 24 * 60 * 60 * 1000),
  duplicate_window: nanos(2 * 60 * 1000),
});

export const consumerConfig = (names: StreamNames) => ({
  durable_name: names.consumer,
  deliver_policy: DeliverPolicy.All,
  ack_policy: AckPolicy.Explicit,
  ack_wait: nanos(30_000),
  max_deliver: -1,
  max_ack_pending: 1000,
  filter_subject: `${names.subjectPrefix}.>`,
  replay_policy: ReplayPolicy.Instant,
});

const isNotFound = (error: unknown) => error instanceof JetStreamApiError && (error.code === 10059 || error.code === 10014);

/**
 * Creates the stream (with `replicas` copies) and the durable consumer when missing; an existing
 * one is left as infra made it, replica count included.
 */
export async function ensureStream(jsm: JetStreamManager, names: StreamNames, replicas = DEFAULT_STREAM_REPLICAS): Promise<void> {
  try {
    await jsm.streams.info(names.stream);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await jsm.streams.add(streamConfig(names, replicas));
  }
  try {
    await jsm.consumers.info(names.stream, names.consumer);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await jsm.consumers.add(names.stream, consumerConfig(names));
  }
}
