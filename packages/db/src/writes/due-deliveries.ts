import type { Sql } from '../client.js';
import { endpointSecretVersion } from '../queries/endpoint-signing-keys.js';

// Timestamps go to Postgres as ISO strings: the shared postgres.js client carries drizzle's
// type handlers, which do not serialise Date parameters.

/** A delivery claimed for an attempt, with the event payload to send. */
export type DeliveryJob = {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: string;
  /** The W3C `traceparent` its event was written under, when tracing was on. */
  traceContext?: string | null;
  /** Attempts already made; the next is attemptsMade + 1. */
  attemptsMade: number;
  /**
   * The endpoint's signing-secret version when the delivery was created or claimed
   * (endpointSecretVersion): secrets cached from before it are stale. Absent: any cached ones do.
   */
  secretVersion?: number;
};

/**
 * Claims pending deliveries whose attempt is due — retries, manual retries and recoveries, and
 * deliveries a crashed instance held past their lease — by pushing their lease forward, so no
 * other instance takes them meanwhile (the claimant renews it while it holds them:
 * renewDeliveryLeases). Endpoints whose queue here is already full are skipped;
 * of any other, at most its room (`endpointRooms`, else `perEndpointLimit`) is claimed, oldest first.
 */
export async function claimDueDeliveries(
  sql: Sql,
  args: {
    now: Date;
    leaseMs: number;
    limit: number;
    skipEndpoints: readonly string[];
    perEndpointLimit?: number;
    endpointRooms?: readonly { id: string; room: number }[];
  },
): Promise<DeliveryJob[]> {
  if (args.limit <= 0) return [];
  const now = args.now.toISOString();
  const leasedUntil = new Date(args.now.getTime() + args.leaseMs);
  const rooms = args.endpointRooms ?? [];
  // Row locks cannot be taken beside a window function: rank first, then lock what was picked
  // (SKIP LOCKED, and the conditions checked again on the locked row).
  // Only the earliest due rows are ranked (the due index hands them over in order): ranking every
  // due row cost each poll time in proportion to the backlog, and a backlog is when polls come
  // often. Four times the limit leaves room for endpoints whose own room is small.
  const claimed = await sql<{ deliveryId: string; endpointId: string; eventId: string; eventType: string; attemptsMade: number; secretVersion: number }[]>`
    with candidates as (
      select id, endpoint_id, next_attempt_at from webhook_deliveries
      where status = 'pending' and next_attempt_at <= ${now}::timestamptz
        ${args.skipEndpoints.length > 0 ? sql`and endpoint_id <> all(${args.skipEndpoints}::text[])` : sql``}
      order by next_attempt_at limit ${String(args.limit * 4)}::int),
    ranked as (
      select id, endpoint_id, next_attempt_at, row_number() over (partition by endpoint_id order by next_attempt_at) as rank
      from candidates),
    picked as (
      select r.id from ranked r
      left join unnest(${rooms.map((r) => r.id)}::text[], ${rooms.map((r) => String(r.room))}::text[]::int[]) as room(endpoint_id, n)
        on room.endpoint_id = r.endpoint_id
      where r.rank <= coalesce(room.n, ${String(args.perEndpointLimit ?? args.limit)}::int)
      order by r.next_attempt_at limit ${args.limit}),
    due as (
      select d.id from webhook_deliveries d join picked p on p.id = d.id
      where d.status = 'pending' and d.next_attempt_at <= ${now}::timestamptz
      for update of d skip locked)
    update webhook_deliveries d set next_attempt_at = ${leasedUntil.toISOString()}::timestamptz
    from due where d.id = due.id
    returning d.id as "deliveryId", d.endpoint_id as "endpointId", d.event_id as "eventId", d.event_type as "eventType",
              d.attempt_count as "attemptsMade",
              (select ${endpointSecretVersion(sql)} from webhook_endpoints e where e.id = d.endpoint_id) as "secretVersion"`;
  if (claimed.length === 0) return [];
  const events = await sql<{ id: string; payload: string; traceContext: string | null }[]>`
    select id, payload, trace_context as "traceContext" from event_outbox where id = any(${claimed.map((c) => c.eventId)})`;
  const byEvent = new Map(events.map((e) => [e.id, e]));
  const orphaned = claimed.filter((c) => !byEvent.has(c.eventId)).map((c) => c.deliveryId);
  if (orphaned.length > 0) {
    // Its event outlived the outbox's retention: nothing is left to send.
    await sql`update webhook_deliveries set status = 'failed', next_attempt_at = null where id = any(${orphaned})`;
  }
  return claimed
    .filter((c) => byEvent.has(c.eventId))
    .map((c) => ({ ...c, payload: byEvent.get(c.eventId)!.payload, traceContext: byEvent.get(c.eventId)!.traceContext }));
}

/** Hands deliveries back (not started here): due again at `at`, for whichever instance polls first. */
export async function releaseDeliveries(sql: Sql, deliveryIds: readonly string[], at: Date): Promise<void> {
  if (deliveryIds.length === 0) return;
  await sql`update webhook_deliveries set next_attempt_at = ${at.toISOString()}::timestamptz where id = any(${deliveryIds}::text[]) and status = 'pending'`;
}

/**
 * Pushes the lease of deliveries still held by their claimant forward to `leasedUntil` (the
 * claimant's heartbeat), never back. A delivery whose attempt count moved since the claim had its
 * outcome recorded, and its next attempt's time is the schedule's, not a lease: it is left alone,
 * as is one no longer pending.
 */
export async function renewDeliveryLeases(
  sql: Sql,
  args: { leases: readonly { deliveryId: string; attemptsMade: number }[]; leasedUntil: Date },
): Promise<void> {
  if (args.leases.length === 0) return;
  await sql`
    update webhook_deliveries d set next_attempt_at = greatest(d.next_attempt_at, ${args.leasedUntil.toISOString()}::timestamptz)
    from unnest(${args.leases.map((l) => l.deliveryId)}::text[], ${args.leases.map((l) => String(l.attemptsMade))}::text[]::int[]) as v(id, attempts_made)
    where d.id = v.id and d.status = 'pending' and d.attempt_count = v.attempts_made`;
}

/**
 * Fails a claimed delivery whose endpoint is disabled (by its owner, say: only a 410 or the 5-day
 * rule fail pending deliveries as they disable). The database decides, not the endpoint cache:
 * false when the endpoint is enabled after all or the delivery is no longer pending.
 */
export async function failDeliveryOfDisabledEndpoint(sql: Sql, deliveryId: string, at: Date): Promise<boolean> {
  const rows = await sql`
    update webhook_deliveries d set status = 'failed', next_attempt_at = null, updated_at = ${at.toISOString()}::timestamptz
    from webhook_endpoints e
    where d.id = ${deliveryId} and d.status = 'pending' and e.id = d.endpoint_id and not e.enabled
    returning d.id`;
  return rows.length > 0;
}
