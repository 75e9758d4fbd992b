import type { SqlOrTx } from '../client.js';
import { newId } from '../ids.js';

// Arrays go as text[] (numbers and times as strings, cast in SQL): the shared postgres.js client
// carries drizzle's type handlers, which cannot serialise int or timestamptz arrays.

/** One attempt as the attempt log keeps it. */
export type DeliveryAttemptRecord = {
  deliveryId: string;
  endpointId: string;
  attemptNumber: number;
  responseStatus: number | null;
  failureKind: string | null;
  latencyMs: number;
  responseBody: string | null;
  /** The next attempt this one scheduled; null when none follows. */
  nextAttemptAt: Date | null;
  at: Date;
};

/** What one attempt decides for its delivery: done, another attempt at `nextAttemptAt`, or given up. */
export type DeliveryAttemptResult = {
  deliveryId: string;
  attemptNumber: number;
  deliveryStatus: 'succeeded' | 'pending' | 'failed';
  nextAttemptAt: Date | null;
  at: Date;
};

/**
 * Appends attempts to the attempt log, in one statement, skipping those whose delivery no longer
 * exists: an endpoint deleted while its POSTs were in flight took their deliveries with it, and
 * their outcomes have nothing left to record (their rows would break the foreign key and fail
 * the whole statement). The deliveries are locked FOR KEY SHARE as they are read, so one deleted
 * meanwhile is either skipped or waits for this transaction; never a violation.
 */
export async function insertDeliveryAttempts(tx: SqlOrTx, attempts: readonly DeliveryAttemptRecord[]): Promise<void> {
  if (attempts.length === 0) return;
  await tx`
    insert into webhook_delivery_attempts
      (id, delivery_id, endpoint_id, attempt_number, response_status, failure_kind, latency_ms, response_body, next_attempt_at, created_at)
    select v.* from unnest(
      ${attempts.map((o) => newId('webhookAttempt', o.at.getTime()))}::text[], ${attempts.map((o) => o.deliveryId)}::text[],
      ${attempts.map((o) => o.endpointId)}::text[], ${attempts.map((o) => String(o.attemptNumber))}::int[], ${attempts.map((o) => (o.responseStatus === null ? null : String(o.responseStatus)))}::int[],
      ${attempts.map((o) => o.failureKind)}::text[], ${attempts.map((o) => String(Math.round(o.latencyMs)))}::int[], ${attempts.map((o) => o.responseBody)}::text[],
      ${attempts.map((o) => o.nextAttemptAt?.toISOString() ?? null)}::text[]::timestamptz[], ${attempts.map((o) => o.at.toISOString())}::text[]::timestamptz[])
      as v(id, delivery_id, endpoint_id, attempt_number, response_status, failure_kind, latency_ms, response_body, next_attempt_at, created_at)
    join webhook_deliveries d on d.id = v.delivery_id
    for key share of d`;
}

/**
 * Moves each delivery to what its attempt decided, in one statement (a delivery deleted meanwhile
 * is simply not there to update). A failure that would schedule another attempt fails the
 * delivery instead when its endpoint is disabled meanwhile (a 410 or the 5-day rule answered by a
 * POST that was in flight alongside): a disabled endpoint keeps no pending deliveries.
 */
export async function applyDeliveryAttemptResults(tx: SqlOrTx, results: readonly DeliveryAttemptResult[]): Promise<void> {
  if (results.length === 0) return;
  await tx`
    update webhook_deliveries d
    set status = case when v.status = 'pending' and not e.enabled then 'failed' else v.status end,
      attempt_count = greatest(d.attempt_count, v.attempts),
      next_attempt_at = case when v.status = 'pending' and not e.enabled then null else v.next_at end,
      last_attempt_at = v.at, updated_at = v.at
    from unnest(${results.map((o) => o.deliveryId)}::text[], ${results.map((o) => o.deliveryStatus)}::text[],
                ${results.map((o) => String(o.attemptNumber))}::int[], ${results.map((o) => o.nextAttemptAt?.toISOString() ?? null)}::text[]::timestamptz[],
                ${results.map((o) => o.at.toISOString())}::text[]::timestamptz[]) as v(id, status, attempts, next_at, at),
         webhook_endpoints e
    where d.id = v.id and e.id = d.endpoint_id`;
}

/** Ends the failure streak of endpoints that delivered. */
export async function clearEndpointFailureStreaks(tx: SqlOrTx, endpointIds: readonly string[]): Promise<void> {
  if (endpointIds.length === 0) return;
  await tx`update webhook_endpoints set failing_since = null where id = any(${endpointIds}) and failing_since is not null`;
}

/**
 * Starts the failure streak of enabled endpoints that failed (a running streak keeps its start);
 * returns those whose streak began at or before `expiredAt`.
 */
export async function extendEndpointFailureStreaks(
  tx: SqlOrTx,
  args: { endpointIds: readonly string[]; at: Date; expiredAt: Date },
): Promise<string[]> {
  if (args.endpointIds.length === 0) return [];
  const streaks = await tx<{ id: string; expired: boolean }[]>`
    update webhook_endpoints set failing_since = coalesce(failing_since, ${args.at.toISOString()}::timestamptz)
    where id = any(${args.endpointIds}) and enabled
    returning id, failing_since <= ${args.expiredAt.toISOString()}::timestamptz as expired`;
  return streaks.filter((s) => s.expired).map((s) => s.id);
}

/** Disables an endpoint with the reason shown to its owner; false when it was disabled already. */
export async function disableFailingEndpoint(tx: SqlOrTx, args: { endpointId: string; reason: string; at: Date }): Promise<boolean> {
  const [row] = await tx<{ id: string }[]>`
    update webhook_endpoints set enabled = false, disabled_reason = ${args.reason}, disabled_at = ${args.at.toISOString()}::timestamptz, updated_at = ${args.at.toISOString()}::timestamptz
    where id = ${args.endpointId} and enabled returning id`;
  return row !== undefined;
}

/** Fails every delivery an endpoint still had pending (it was just disabled). */
export async function failPendingDeliveriesOfEndpoint(tx: SqlOrTx, args: { endpointId: string; at: Date }): Promise<void> {
  await tx`update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = ${args.at.toISOString()}::timestamptz
           where endpoint_id = ${args.endpointId} and status = 'pending'`;
}
