import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { createDeliveryAgent, parseAllowedHosts, AUTO_DISABLE_AFTER_MS } from '@raffle/webhooks';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Agent } from 'undici';
import { startEventConsumer, type EventConsumer } from '../consumer/event-consumer.js';
import { ensureStream } from '../consumer/stream-setup.js';
import { configOf } from '../decorations.js';
import { createDeliveryWorker, type DeliveryWorker } from '../delivery/delivery-worker.js';
import { createEndpointDirectory } from '../delivery/endpoint-directory.js';
import { createOutcomeRecorder } from '../delivery/outcome-recorder.js';
import { startRelayLoop, type RelayLoop } from '../relay/relay-loop.js';
import { dispatcherMetrics } from './dispatcher-metrics.js';

export type DispatcherDependencies = {
  /** The clock deliveries are scheduled by; tests pass one they move by hand. */
  now?: () => Date;
  random?: () => number;
  /** Replaces the delivery agent (tests inject DNS answers through it). */
  agent?: Agent;
  /** Fault injection for tests: runs between publishing a relay batch and marking it. */
  afterRelayPublish?: () => Promise<void>;
};

export type Dispatcher = {
  relay: RelayLoop | null;
  worker: DeliveryWorker;
  /** Resolves once the JetStream consumer runs (never, while NATS stays unreachable). */
  consumerStarted: Promise<void>;
  pollDue(): Promise<number>;
};


/**
 * The dispatcher's three loops: the outbox relay (Postgres → JetStream), the event consumer
 * (JetStream → deliveries) and the delivery worker with its due-delivery poll. None needs NATS to
 * start; each waits for what it needs. Closing drains them in order: stop relaying and consuming,
 * hand queued deliveries back, let in-flight POSTs finish, record their outcomes.
 */
async function dispatcherPlugin(app: FastifyInstance, deps: DispatcherDependencies) {
  const config = configOf(app);
  const now = deps.now ?? (() => new Date());
  const log = app.log;
  const policy = { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowedHosts: parseAllowedHosts(config.WEBHOOK_ALLOWED_HOSTS) };
  // undici pools connections per origin, not per endpoint: endpoints sharing a host (one receiving
  // service, different paths) share the pool, so capping it at the per-endpoint limit would let a
  // hung path hold every connection its siblings need. The fair queue caps each endpoint already.
  const agent = deps.agent ?? createDeliveryAgent(policy, { connections: config.DELIVERY_CONCURRENCY });
  const sql = app.database.sql;
  const names = { stream: config.NATS_STREAM, subjectPrefix: config.NATS_SUBJECT_PREFIX, consumer: config.NATS_CONSUMER };
  const metrics = dispatcherMetrics(app, names);

  const recorder = createOutcomeRecorder({ sql, log, autoDisableAfterMs: AUTO_DISABLE_AFTER_MS });
  const directory = createEndpointDirectory(sql, { ttlMs: 1000, now });
  const worker = createDeliveryWorker({
    sql,
    agent,
    directory,
    recorder,
    now,
    random: deps.random,
    concurrency: config.DELIVERY_CONCURRENCY,
    perEndpointConcurrency: config.DELIVERY_CONCURRENCY_PER_ENDPOINT,
    timeoutMs: config.DELIVERY_TIMEOUT_MS,
    leaseMs: config.DELIVERY_LEASE_MS,
    log,
    onAttempt: (outcome, result, job) => metrics.observe(outcome, result, job),
  });

  let relay: RelayLoop | null = null;
  if (config.RELAY_ENABLED) {
    relay = await startRelayLoop({
      sql,
      listenSql: app.database.listenSql,
      publish: async (subject, event) => {
        const nc = app.nats.connection();
        if (!nc) throw new Error('NATS is not connected');
        await jetstream(nc).publish(subject, JSON.stringify(event), { msgID: event.id, timeout: 5000 });
      },
      isPublishable: () => app.nats.isConnected(),
      batchSize: config.RELAY_BATCH_SIZE,
      subjectPrefix: names.subjectPrefix,
      pollIntervalMs: config.RELAY_POLL_INTERVAL_MS,
      retentionDays: config.OUTBOX_RETENTION_DAYS,
      log,
      afterPublish: deps.afterRelayPublish,
    });
  }

  let consumer: EventConsumer | null = null;
  let closing = false;
  let markStarted: () => void = () => undefined;
  const consumerStarted = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  if (config.CONSUMER_ENABLED) {
    app.nats.whenConnected((nc) => {
      void (async () => {
        for (let attempt = 0; !closing; attempt++) {
          try {
            if (config.NATS_ENSURE_STREAM) await ensureStream(await jetstreamManager(nc), names, config.NATS_STREAM_REPLICAS);
            consumer = await startEventConsumer({
              js: jetstream(nc),
              names,
              sql,
              now,
              leaseMs: config.DELIVERY_LEASE_MS,
              onDeliveries: (deliveries) => worker.submit(deliveries.map((d) => ({ ...d, attemptsMade: 0 }))),
              roomFor: (endpointId) => worker.roomFor(endpointId),
              log,
            });
            markStarted();
            return;
          } catch (error) {
            if (attempt === 0) log.warn({ err: error }, 'JetStream consumer not ready yet; retrying');
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }
      })();
    });
  }

  let pollTimer: NodeJS.Timeout | null = null;
  const poll = async () => {
    try {
      await worker.pollDue();
    } catch (error) {
      log.warn({ err: error }, 'polling due deliveries failed; retrying next interval');
    } finally {
      if (!closing) {
        pollTimer = setTimeout(() => void poll(), config.DELIVERY_POLL_INTERVAL_MS);
        pollTimer.unref();
      }
    }
  };
  app.addHook('onReady', async () => {
    void poll();
  });

  app.decorate('dispatcher', { relay, worker, consumerStarted, pollDue: () => worker.pollDue() } satisfies Dispatcher);

  app.addHook('preClose', async () => {
    closing = true;
    if (pollTimer) clearTimeout(pollTimer);
    await relay?.stop();
    await (consumer as EventConsumer | null)?.stop();
    await worker.drain(config.DRAIN_TIMEOUT_MS);
    // destroy, not close: close() would wait for POSTs the drain gave up on (up to their timeout).
    if (!deps.agent) await agent.destroy().catch(() => undefined);
  });
}

export default fp(dispatcherPlugin, { name: 'dispatcher', dependencies: ['database', 'nats', 'metrics'] });
