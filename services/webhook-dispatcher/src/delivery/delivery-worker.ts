import { claimDueDeliveries, failDeliveryOfDisabledEndpoint, releaseDeliveries, type DeliveryJob, type Sql } from '@raffle/db';
import { delayBeforeNextAttempt, RETRY_SCHEDULE_MS, sendWebhook, signWebhook, type SendResult } from '@raffle/webhooks';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Agent } from 'undici';
import type { EndpointDirectory } from './endpoint-directory.js';
import { startDeliverySpan } from './delivery-span.js';
import { FairQueue } from './fair-queue.js';
import { createLeaseKeeper } from './lease-keeper.js';
import type { AttemptOutcome } from './attempt-outcome.js';
import type { OutcomeRecorder } from './outcome-recorder.js';

export type DeliveryWorkerOptions = {
  sql: Sql;
  agent: Agent;
  directory: EndpointDirectory;
  recorder: OutcomeRecorder;
  now: () => Date;
  random?: () => number;
  concurrency: number;
  perEndpointConcurrency: number;
  timeoutMs: number;
  /** How long a claim lasts unrenewed; renewed every third of it while held (lease-keeper.ts). */
  leaseMs: number;
  log: Logger;
  onAttempt?: (outcome: AttemptOutcome, result: SendResult, job: DeliveryJob) => void;
};

/**
 * Jobs one endpoint may have waiting here; beyond it they go back to Postgres due at once. The
 * poller skips endpoints whose queue here is full, so a stuck endpoint's overflow just waits
 * there, while a healthy endpoint's burst is claimed again as soon as its queue has room (a
 * delay here would hold a healthy endpoint's burst back for that long, and cap its throughput).
 */
const QUEUED_PER_RUNNING_SLOT = 8;

/**
 * A crashed attempt (Postgres failed a lookup, say) sent nothing and says nothing about the
 * endpoint: its delivery is handed back due at the schedule's first retry slot, soon enough that
 * one error costs seconds, late enough that a delivery crashing every time is not spun on.
 */
const CRASH_RETRY_DELAY_MS = RETRY_SCHEDULE_MS[1]!;

/**
 * Sends deliveries: a fair queue per endpoint, `concurrency` POSTs at once over all of them and at
 * most `perEndpointConcurrency` to any one, every POST signed afresh (new timestamp, same
 * webhook-id), every outcome recorded in batches. An endpoint that cannot keep up holds a bounded
 * queue here; the rest of its deliveries wait in Postgres, so memory and the healthy endpoints'
 * latency do not depend on it. Every delivery held here keeps its lease renewed until its outcome
 * is recorded; a failed attempt hands its delivery back at once.
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions) {
  const queue = new FairQueue<DeliveryJob>(options.perEndpointConcurrency);
  const perEndpointQueueCap = options.perEndpointConcurrency * QUEUED_PER_RUNNING_SLOT;
  let running = 0;
  let accepting = true;
  /** Set when a drain stops waiting for the POSTs still in flight. */
  let abandoned = false;
  const idleWaiters: (() => void)[] = [];
  const leases = createLeaseKeeper({ sql: options.sql, leaseMs: options.leaseMs, now: options.now, log: options.log });
  leases.start();

  options.recorder.onEndpointDisabled((endpointId) => {
    options.directory.forget(endpointId);
    // The recorder failed their deliveries as it disabled the endpoint.
    for (const job of queue.drain(endpointId)) leases.letGo(job.deliveryId);
  });

  /**
   * Stops holding deliveries and makes them due at `at`, for whichever instance polls first. Let go
   * first, so that no heartbeat pushes the lease forward again over the release.
   */
  const handBack = async (deliveryIds: string[], at: Date, why: string) => {
    for (const id of deliveryIds) leases.letGo(id);
    try {
      await releaseDeliveries(options.sql, deliveryIds, at);
    } catch (error) {
      options.log.warn({ err: error, deliveries: deliveryIds.length }, `could not hand back ${why} deliveries; their lease returns them`);
    }
  };

  const settleIdle = () => {
    if (running === 0 && queue.size === 0) for (const resolve of idleWaiters.splice(0)) resolve();
  };

  const outcomeOf = (job: DeliveryJob, result: SendResult, at: Date): AttemptOutcome => {
    const attemptNumber = job.attemptsMade + 1;
    const base = {
      deliveryId: job.deliveryId,
      endpointId: job.endpointId,
      attemptNumber,
      latencyMs: result.latencyMs,
      responseBody: result.body,
      responseStatus: result.status,
      at,
    };
    if (result.kind === 'success') {
      return { ...base, succeeded: true, failureKind: null, deliveryStatus: 'succeeded', nextAttemptAt: null, gone: false };
    }
    const delay = result.gone ? null : delayBeforeNextAttempt(attemptNumber, options.random);
    return {
      ...base,
      succeeded: false,
      failureKind: result.failureKind,
      deliveryStatus: delay === null ? 'failed' : 'pending',
      nextAttemptAt: delay === null ? null : new Date(at.getTime() + delay),
      gone: result.gone,
    };
  };

  /**
   * Sends the delivery; resolves once sent, with the recording of its outcome when there is one
   * (wrapped: an async function returning a promise would wait for it, holding the POST's slot
   * until Postgres had written the outcome).
   */
  const attempt = async (job: DeliveryJob): Promise<{ recording: Promise<void> } | undefined> => {
    const secretVersions = new Map(job.secretVersion === undefined ? [] : [[job.endpointId, job.secretVersion]]);
    let endpoint = (await options.directory.get([job.endpointId], secretVersions)).get(job.endpointId);
    // Deleted: its deliveries went with it.
    if (!endpoint) return undefined;
    if (!endpoint.enabled) {
      // Disabled: nothing is sent, and the delivery must not stay pending (it would be claimed again
      // every lease, forever). The cache may be a moment stale, so look again before failing it.
      options.directory.forget(job.endpointId);
      endpoint = (await options.directory.get([job.endpointId])).get(job.endpointId);
      if (!endpoint) return undefined;
      if (!endpoint.enabled) {
        if (!(await failDeliveryOfDisabledEndpoint(options.sql, job.deliveryId, options.now()))) {
          await releaseDeliveries(options.sql, [job.deliveryId], options.now());
        }
        return undefined;
      }
    }
    const headers = signWebhook({
      secrets: endpoint.secrets,
      id: job.eventId,
      timestampSeconds: Math.floor(options.now().getTime() / 1000),
      body: job.payload,
    });
    const span = startDeliverySpan(job);
    const result = await sendWebhook({ agent: options.agent, url: endpoint.url, headers, body: job.payload, traceparent: span.traceparent, timeoutMs: options.timeoutMs });
    span.end(result);
    // Cut off by a shutdown that stopped waiting, not answered by the endpoint: nothing to record;
    // the delivery's lease hands it to another instance.
    if (abandoned) return undefined;
    const outcome = outcomeOf(job, result, options.now());
    const recording = options.recorder.record(outcome);
    options.onAttempt?.(outcome, result, job);
    return { recording };
  };

  /** Runs one job; its delivery stays held (its lease renewed) until the outcome is recorded. */
  const run = (job: DeliveryJob): Promise<void> =>
    attempt(job).then(
      (sent) => {
        if (sent) void sent.recording.then(() => leases.letGo(job.deliveryId));
        else leases.letGo(job.deliveryId);
      },
      (error: unknown) => {
        options.log.error({ err: error, deliveryId: job.deliveryId }, `delivery attempt crashed; handed back for a retry in ${CRASH_RETRY_DELAY_MS / 1000} s`);
        void handBack([job.deliveryId], new Date(options.now().getTime() + CRASH_RETRY_DELAY_MS), 'crashed');
      },
    );

  const pump = () => {
    while (running < options.concurrency) {
      const job = queue.take();
      if (!job) break;
      running += 1;
      void run(job).finally(() => {
        running -= 1;
        queue.done(job.endpointId);
        pump();
        settleIdle();
      });
    }
    settleIdle();
  };

  /**
   * Queues jobs this instance claimed; what does not fit an endpoint's bounded queue goes back to
   * Postgres. A job already held here (claimed again after its lease lapsed while Postgres was
   * away, its attempt under way or its outcome unrecorded) is not queued twice.
   */
  const submit = (jobs: DeliveryJob[]) => {
    const fresh = jobs.filter((job) => leases.hold(job.deliveryId, job.attemptsMade));
    if (!accepting) {
      void handBack(fresh.map((j) => j.deliveryId), options.now(), 'unstarted');
      return;
    }
    const parked: string[] = [];
    for (const job of fresh) {
      if (queue.queuedFor(job.endpointId) >= perEndpointQueueCap) parked.push(job.deliveryId);
      else queue.push(job);
    }
    if (parked.length > 0) void handBack(parked, options.now(), 'parked');
    pump();
  };

  /** How many more jobs of an endpoint its queue here takes (none while draining). */
  const roomFor = (endpointId: string) => (accepting ? Math.max(0, perEndpointQueueCap - queue.queuedFor(endpointId)) : 0);

  return {
    submit,
    roomFor,
    /**
     * Claims due deliveries up to the room left, overall and in each endpoint's queue (an endpoint
     * whose queue is full is skipped: its due deliveries wait in Postgres), and queues them;
     * returns how many. Claiming no more than fits means nothing claimed is handed straight back.
     */
    async pollDue(): Promise<number> {
      if (!accepting) return 0;
      const room = options.concurrency * 4 - queue.size;
      const queued = queue.queuedEndpoints().map((id) => ({ id, room: roomFor(id) }));
      const jobs = await claimDueDeliveries(options.sql, {
        now: options.now(),
        leaseMs: options.leaseMs,
        limit: room,
        skipEndpoints: queued.filter((e) => e.room === 0).map((e) => e.id),
        perEndpointLimit: perEndpointQueueCap,
        endpointRooms: queued.filter((e) => e.room > 0),
      });
      submit(jobs);
      return jobs.length;
    },
    stats: () => ({ running, queued: queue.size, held: leases.size }),
    /** Resolves once nothing is queued or running here (tests). */
    idle(): Promise<void> {
      if (running === 0 && queue.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    /**
     * Graceful drain: stop taking work, hand queued jobs back (due now, for the other instances),
     * let in-flight POSTs finish within `timeoutMs`, and write their outcomes, renewing leases
     * all the while. POSTs still in flight after it are abandoned (the caller then destroys the
     * agent): their leases, no longer renewed, hand them to another instance, so they are sent
     * again rather than recorded as failures of ours.
     */
    async drain(timeoutMs: number): Promise<void> {
      accepting = false;
      await handBack(queue.drain().map((j) => j.deliveryId), options.now(), 'queued');
      const deadline = () => new Promise<false>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
      const finished = await Promise.race([this.idle().then(() => true), deadline()]);
      if (!finished) abandoned = true;
      // Bounded too: with Postgres gone, an unrecorded attempt is simply sent again after its lease.
      await Promise.race([options.recorder.flush(), deadline()]);
      await leases.stop();
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
