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
  log: Logger;
}): Promise<EventConsumer> {
  const consumer = await options.js.consumers.get(options.names.stream, options.names.consumer);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: BATCH * 2 });
  let pending: JsMsg[] = [];
  let flushing: Promise<void> = Promise.resolve();

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
        options.onDeliveries(await fanOut(options.sql, events, options.now(), options.leaseMs));
        break;
      } catch (error) {
        // Postgres unavailable: keep the messages (unacked) and try again shortly.
        options.log.warn({ err: error }, 'fan-out failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    for (const m of batch) m.ack();
  };

  const done = (async () => {
    for await (const message of messages) {
      pending.push(message);
      // Take what has already arrived before writing, so a burst becomes one statement.
      if (pending.length < BATCH && messages.getPending() > 0) continue;
      const batch = pending;
      pending = [];
      flushing = flushing.then(() => flush(batch));
      await flushing;
    }
  })();

  return {
    async stop() {
      await messages.close().catch(() => undefined);
      await done.catch(() => undefined);
      if (pending.length > 0) await flush(pending.splice(0));
      await flushing;
    },
  };
}
