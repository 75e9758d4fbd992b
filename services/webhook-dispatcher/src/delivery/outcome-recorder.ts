import { newId, type Sql } from '@raffle/db';
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

  // Arrays go as text[] (numbers and times as strings, cast in SQL): the shared postgres.js client
  // carries drizzle's type handlers, which cannot serialise int or timestamptz arrays.
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
      await tx`
        insert into webhook_delivery_attempts
          (id, delivery_id, endpoint_id, attempt_number, response_status, failure_kind, latency_ms, response_body, created_at)
        select * from unnest(
          ${batch.map((o) => newId('webhookAttempt', o.at.getTime()))}::text[], ${batch.map((o) => o.deliveryId)}::text[],
          ${batch.map((o) => o.endpointId)}::text[], ${batch.map((o) => String(o.attemptNumber))}::int[], ${batch.map((o) => (o.responseStatus === null ? null : String(o.responseStatus)))}::int[],
          ${batch.map((o) => o.failureKind)}::text[], ${batch.map((o) => String(Math.round(o.latencyMs)))}::int[], ${batch.map((o) => o.responseBody)}::text[],
          ${batch.map((o) => o.at.toISOString())}::text[]::timestamptz[])`;
      // A failure that would schedule another attempt fails the delivery instead when its endpoint
      // is disabled meanwhile (a 410 or the 5-day rule answered by a POST that was in flight
      // alongside): a disabled endpoint keeps no pending deliveries.
      await tx`
        update webhook_deliveries d
        set status = case when v.status = 'pending' and not e.enabled then 'failed' else v.status end,
          attempt_count = greatest(d.attempt_count, v.attempts),
          next_attempt_at = case when v.status = 'pending' and not e.enabled then null else v.next_at end,
          last_attempt_at = v.at, updated_at = v.at
        from unnest(${batch.map((o) => o.deliveryId)}::text[], ${batch.map((o) => o.deliveryStatus)}::text[],
                    ${batch.map((o) => String(o.attemptNumber))}::int[], ${batch.map((o) => o.nextAttemptAt?.toISOString() ?? null)}::text[]::timestamptz[],
                    ${batch.map((o) => o.at.toISOString())}::text[]::timestamptz[]) as v(id, status, attempts, next_at, at),
             webhook_endpoints e
        where d.id = v.id and e.id = d.endpoint_id`;
      if (recovered.length > 0) {
        await tx`update webhook_endpoints set failing_since = null where id = any(${recovered}) and failing_since is not null`;
      }
      const expired: string[] = [];
      if (failing.length > 0) {
        const streaks = await tx<{ id: string; expired: boolean }[]>`
          update webhook_endpoints set failing_since = coalesce(failing_since, ${now.toISOString()}::timestamptz)
          where id = any(${failing}) and enabled
          returning id, failing_since <= ${new Date(now.getTime() - options.autoDisableAfterMs).toISOString()}::timestamptz as expired`;
        expired.push(...streaks.filter((s) => s.expired).map((s) => s.id));
      }
      const toDisable = [
        ...gone.map((id) => ({ id, reason: 'The endpoint answered 410 Gone' })),
        ...expired.filter((id) => !gone.includes(id)).map((id) => ({ id, reason: 'Every delivery failed for 5 days' })),
      ];
      for (const { id, reason } of toDisable) {
        const [row] = await tx<{ id: string }[]>`
          update webhook_endpoints set enabled = false, disabled_reason = ${reason}, disabled_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
          where id = ${id} and enabled returning id`;
        if (!row) continue;
        await tx`update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = ${now.toISOString()}::timestamptz
                 where endpoint_id = ${id} and status = 'pending'`;
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
