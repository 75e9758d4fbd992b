import { jetstreamManager } from '@nats-io/jetstream';
import { readOutboxBacklog, timeOfId, type DeliveryJob } from '@raffle/db';
import type { SendResult } from '@raffle/webhooks';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { StreamNames } from '../consumer/stream-setup.js';
import type { AttemptOutcome } from '../delivery/attempt-outcome.js';

/** A scrape waits this long for JetStream's consumer info before keeping the last value. */
const CONSUMER_INFO_TIMEOUT_MS = 2000;

/**
 * What an operator watches on the dispatcher (infra/prometheus/alerts.yaml, the Grafana
 * dashboard): attempts by outcome and how long they took, how long after its event a delivery
 * was attempted, the outbox waiting to be relayed (rows and the oldest one's age, read from
 * Postgres at each scrape), and the consumer's messages not yet delivered to or acked by any
 * dispatcher (from JetStream at each scrape).
 */
export function dispatcherMetrics(app: FastifyInstance, names: StreamNames) {
  const registers = [app.metricsRegistry];
  const attempts = new Counter({ name: 'webhook_attempts_total', help: 'Delivery attempts by outcome', labelNames: ['outcome'] as const, registers });
  const latency = new Histogram({
    name: 'webhook_attempt_duration_seconds',
    help: 'Time from sending a delivery to its response (or failure)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers,
  });
  const lag = new Histogram({
    name: 'webhook_delivery_lag_seconds',
    help: "From the event's commit to the end of a delivery attempt, first attempts and retries apart",
    labelNames: ['attempt'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 36000],
    registers,
  });
  // A scrape collects every gauge at once: the two outbox gauges share one read of the outbox.
  let reading: ReturnType<typeof readOutboxBacklog> | null = null;
  const backlog = () => (reading ??= readOutboxBacklog(app.database.sql).finally(() => (reading = null)));
  new Gauge({
    name: 'outbox_unpublished_events',
    help: 'Outbox rows not yet relayed to JetStream',
    registers,
    async collect() {
      this.set((await backlog()).events);
    },
  });
  new Gauge({
    name: 'outbox_oldest_unpublished_age_seconds',
    help: 'How long the oldest outbox row not yet relayed has waited (0 when none waits)',
    registers,
    async collect() {
      this.set((await backlog()).oldestAgeSeconds);
    },
  });
  new Gauge({
    name: 'jetstream_consumer_pending_messages',
    help: "The dispatchers' durable consumer: messages not yet delivered (pending) and delivered but not acked (ack_pending)",
    labelNames: ['state'] as const,
    registers,
    async collect() {
      const nc = app.nats.connection();
      if (!nc) return;
      const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), CONSUMER_INFO_TIMEOUT_MS).unref());
      const info = await Promise.race([jetstreamManager(nc).then((jsm) => jsm.consumers.info(names.stream, names.consumer)), timeout]).catch(() => null);
      if (!info) return;
      this.set({ state: 'pending' }, info.num_pending);
      this.set({ state: 'ack_pending' }, info.num_ack_pending);
    },
  });

  return {
    observe(outcome: AttemptOutcome, result: SendResult, job: DeliveryJob) {
      attempts.inc({ outcome: result.kind === 'success' ? 'success' : result.failureKind });
      latency.observe(outcome.latencyMs / 1000);
      const committedAt = timeOfId(job.eventId);
      if (Number.isFinite(committedAt)) lag.observe({ attempt: outcome.attemptNumber === 1 ? 'first' : 'retry' }, Math.max(0, outcome.at.getTime() - committedAt) / 1000);
    },
  };
}
