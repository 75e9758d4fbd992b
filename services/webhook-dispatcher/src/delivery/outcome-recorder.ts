import {
  applyDeliveryAttemptResults,
  clearEndpointFailureStreaks,
  disableFailingEndpoint,
  extendEndpointFailureStreaks,
  failPendingDeliveriesOfEndpoint,
  insertDeliveryAttempts,
  type Sql,
} from '@raffle/db';
import type { FastifyBaseLogger as Logger } from 'fastify';

/** One attempt's result and what it decides for its delivery. */
export type AttemptOutcome = {
  deliveryId: string;
  endpointId: string;
  attemptNumber: number;
  succeeded: boolean;
  responseStatus: number | null;
  failureKind: string | null;
  latencyMs: number;
  responseBody: string | null;
  at: Date;
  /** What follows: done, another attempt at `nextAttemptAt`, or given up. */
  deliveryStatus: 'succeeded' | 'pending' | 'failed';
  nextAttemptAt: Date | null;
  /** The endpoint answered 410 Gone: it is disabled at once. */
  gone: boolean;
};

export type RecorderOptions = { sql: Sql; log: Logger; autoDisableAfterMs: number; maxBatch?: number; flushDelayMs?: number };

/**
 * Writes attempts in batches: one transaction inserts every attempt of the batch, updates their
 * deliveries, and moves each endpoint's failure streak (cleared by a success, started by a
 * failure; five days of it, or one 410, disables the endpoint and fails what it still had
 * pending). Batching is what lets thousands of deliveries a second cost a few statements.
 */
export function createOutcomeRecorder(options: RecorderOptions) {
  const maxBatch = options.maxBatch ?? 500;
  const flushDelayMs = options.flushDelayMs ?? 10;
  let buffer: AttemptOutcome[] = [];
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  const disabledListeners: ((endpointId: string) => void)[] = [];

  const write = async (batch: AttemptOutcome[]) => {
    const { sql } = options;
    const now = batch[batch.length - 1]!.at;
    // The last outcome per endpoint decides its streak.
    const lastByEndpoint = new Map<string, AttemptOutcome>();
    for (const o of batch) lastByEndpoint.set(o.endpointId, o);
    const recovered = [...lastByEndpoint.values()].filter((o) => o.succeeded).map((o) => o.endpointId);
    const failing = [...lastByEndpoint.values()].filter((o) => !o.succeeded).map((o) => o.endpointId);
    const gone = [...new Set(batch.filter((o) => o.gone).map((o) => o.endpointId))];

    const disabled = await sql.begin(async (tx) => {
      // Sent together, run in this order: one round trip instead of four while the batch's
      // transaction is open (a failed one aborts the rest, and the batch is written again).
      const [, , , expired] = await Promise.all([
        insertDeliveryAttempts(tx, batch),
        applyDeliveryAttemptResults(tx, batch),
        clearEndpointFailureStreaks(tx, recovered),
        extendEndpointFailureStreaks(tx, {
          endpointIds: failing,
          at: now,
          expiredAt: new Date(now.getTime() - options.autoDisableAfterMs),
        }),
      ]);
      const toDisable = [
        ...gone.map((id) => ({ id, reason: 'The endpoint answered 410 Gone' })),
        ...expired.filter((id) => !gone.includes(id)).map((id) => ({ id, reason: 'Every delivery failed for 5 days' })),
      ];
      for (const { id, reason } of toDisable) {
        // A disabled endpoint keeps no pending deliveries.
        if (await disableFailingEndpoint(tx, { endpointId: id, reason, at: now })) {
          await failPendingDeliveriesOfEndpoint(tx, { endpointId: id, at: now });
        }
      }
      return toDisable.map((d) => d.id);
    });
    for (const id of disabled) for (const listener of disabledListeners) listener(id);
  };

  const flush = (): Promise<void> => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (buffer.length === 0) return flushing;
    const batch = buffer;
    buffer = [];
    flushing = flushing.then(async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await write(batch);
          return;
        } catch (error) {
          // The attempts happened; losing their record would lose the retry schedule. Keep trying.
          options.log.error({ err: error, attempts: batch.length }, 'recording delivery attempts failed; retrying');
          await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 200 * 2 ** attempt)));
        }
      }
    });
    return flushing;
  };

  return {
    record(outcome: AttemptOutcome) {
      buffer.push(outcome);
      if (buffer.length >= maxBatch) void flush();
      else if (!timer) timer = setTimeout(() => void flush(), flushDelayMs);
    },
    flush,
    onEndpointDisabled(listener: (endpointId: string) => void) {
      disabledListeners.push(listener);
    },
  };
}

export type OutcomeRecorder = ReturnType<typeof createOutcomeRecorder>;
