import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { DISPATCHER_CONSUMER, RAFFLE_EVENTS_STREAM, RAFFLE_EVENTS_SUBJECT_PREFIX } from '@raffle/contracts';
import { natsServers } from '@raffle/service-kit';
import { DEFAULT_STREAM_REPLICAS, ensureStream, MAX_STREAM_REPLICAS, type StreamNames } from './stream-setup.js';

/**
 * Creates the JetStream stream and the dispatcher's durable consumer when missing (what the
 * dispatcher does at start with NATS_ENSURE_STREAM), on a connection of its own. The setup Job of
 * infra/k8s/setup runs it through `src/cli/setup-stream.ts` before the services roll out. Reads
 * NATS_URL (one server or a comma-separated list of a cluster's nodes), NATS_STREAM,
 * NATS_SUBJECT_PREFIX, NATS_CONSUMER and NATS_STREAM_REPLICAS with the dispatcher's defaults, and
 * nothing else: it needs no database and no secret.
 */
export async function setupStream(env: Record<string, string | undefined>): Promise<StreamNames> {
  const names: StreamNames = {
    stream: env.NATS_STREAM || RAFFLE_EVENTS_STREAM,
    subjectPrefix: env.NATS_SUBJECT_PREFIX || RAFFLE_EVENTS_SUBJECT_PREFIX,
    consumer: env.NATS_CONSUMER || DISPATCHER_CONSUMER,
  };
  const replicas = streamReplicas(env.NATS_STREAM_REPLICAS);
  const nc = await connect({ servers: natsServers(env.NATS_URL || 'nats://127.0.0.1:4222'), name: 'raffle-setup-stream', timeout: 10_000 });
  try {
    await ensureStream(await jetstreamManager(nc), names, replicas);
  } finally {
    await nc.close();
  }
  return names;
}

/** NATS_STREAM_REPLICAS as the dispatcher's config reads it (the same bounds and default). */
function streamReplicas(value: string | undefined): number {
  if (!value) return DEFAULT_STREAM_REPLICAS;
  const replicas = Number(value);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_STREAM_REPLICAS) {
    throw new Error(`NATS_STREAM_REPLICAS must be a whole number from 1 to ${MAX_STREAM_REPLICAS}, not ${JSON.stringify(value)}`);
  }
  return replicas;
}
