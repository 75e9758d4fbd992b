import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { RelayedEvent } from '@raffle/contracts';
import type { StreamNames } from './stream-setup.js';
import type { Sql } from '@raffle/db';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { fanOut, type NewDelivery } from './fan-out.js';

export type EventConsumer = { stop(): Promise<void> };

/** Messages fanned out per database round trip; a busy stream fills it, a quiet one flushes at once. */
const BATCH = 256;
/**
 * How long one pull request stays open on the server (decision 0035). The client expects a
 * heartbeat every half of it and, after two missed, pulls again. A pull lost with a NATS node
 * (the consumer's leader killed) is thus re-sent after about 5 s; with the library's 30 s default
 * it took 30 s, longer than the cluster needs to elect the consumer's new leader. Idle, it costs
 * one pull every 5 s per dispatcher.
 */
const PULL_EXPIRES_MS = 5000;

/**
 * Reads the shared durable pull consumer and turns each batch of events into deliveries in one
 * statement, then acks the batch. A message is acked only after its deliveries committed: a crash
 * before that redelivers it (after ack_wait), and the unique delivery key keeps that harmless.
 * New deliveries go straight to this instance's worker.
 */
export async function startEventConsumer(options: {
  js: JetStreamClient;
  names: StreamNames;
  sql: Sql;
  now: () => Date;
  leaseMs: number;
  onDeliveries: (deliveries: NewDelivery[]) => void;
  /** How many more deliveries of an endpoint the worker here can queue (see fanOut). */
  roomFor?: (endpointId: string) => number;
  log: Logger;
}): Promise<EventConsumer> {
  const consumer = await options.js.consumers.get(options.names.stream, options.names.consumer);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: BATCH * 2, expires: PULL_EXPIRES_MS });
  const pending: JsMsg[] = [];
  let writing: Promise<void> | null = null;
  let scheduled: NodeJS.Immediate | null = null;

  const flush = async (batch: JsMsg[]) => {
    const events: RelayedEvent[] = [];
    for (const m of batch) {
      try {
        events.push(m.json<RelayedEvent>());
      } catch {
        options.log.error({ subject: m.subject, seq: m.seq }, 'unreadable event message; dropped');
      }
    }
    for (;;) {
      try {
        options.onDeliveries(await fanOut(options.sql, events, options.now(), options.leaseMs, options.roomFor));
        break;
      } catch (error) {
        // Postgres unavailable: keep the messages (unacked) and try again shortly.
        options.log.warn({ err: error }, 'fan-out failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    for (const m of batch) m.ack();
  };

  /** Writes what has arrived, up to BATCH at a time, until nothing is left; one writer at a time. */
  const writePending = (): Promise<void> => {
    if (writing) return writing;
    if (pending.length === 0) return Promise.resolve();
    writing = (async () => {
      try {
        while (pending.length > 0) await flush(pending.splice(0, BATCH));
      } finally {
        writing = null;
      }
    })();
    return writing;
  };

  const done = (async () => {
    for await (const message of messages) {
      pending.push(message);
      // Take what has already arrived before writing, so a burst becomes one statement: the
      // iterator hands over everything it holds before an immediate runs. (Its getPending() is
      // no guide: in nats.js 3.4 it stays above zero after internal callbacks, which held the
      // tail of a burst back until ack_wait redelivered it.) Messages arriving during a write
      // are taken by the next round of the same writer; unacked, they are bounded by
      // max_ack_pending.
      scheduled ??= setImmediate(() => {
        scheduled = null;
        // Unacked, the messages of a write that failed come back after ack_wait.
        writePending().catch((error: unknown) => options.log.error({ err: error }, 'writing consumed events failed'));
      });
    }
  })();

  return {
    async stop() {
      await messages.close().catch(() => undefined);
      await done.catch(() => undefined);
      if (scheduled) clearImmediate(scheduled);
      scheduled = null;
      await writePending();
    },
  };
}
