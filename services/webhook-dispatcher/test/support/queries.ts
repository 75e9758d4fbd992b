import type { Sql } from '@raffle/db';
import { waitUntil } from './conditions.js';

export type DeliveryRow = {
  id: string;
  endpointId: string;
  eventId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
};

export type AttemptRow = {
  deliveryId: string;
  attemptNumber: number;
  responseStatus: number | null;
  failureKind: string | null;
  latencyMs: number;
  responseBody: string | null;
  createdAt: Date;
};

export type EndpointRow = { id: string; enabled: boolean; disabledReason: string | null; disabledAt: Date | null; failingSince: Date | null };

// Timestamps are read back as epoch milliseconds: the shared client's drizzle type handlers leave
// timestamptz as text, and numbers compare exactly with the manual clock.
const toDate = (value: number | null) => (value === null ? null : new Date(Math.round(Number(value))));

export async function deliveriesOf(sql: Sql, where: { endpointId?: string; eventId?: string }): Promise<DeliveryRow[]> {
  const rows = await sql<(Omit<DeliveryRow, 'nextAttemptAt' | 'lastAttemptAt'> & { nextAttemptAt: number | null; lastAttemptAt: number | null })[]>`
    select id, endpoint_id as "endpointId", event_id as "eventId", status, attempt_count as "attemptCount",
           (extract(epoch from next_attempt_at) * 1000)::float8 as "nextAttemptAt", (extract(epoch from last_attempt_at) * 1000)::float8 as "lastAttemptAt"
    from webhook_deliveries
    where ${where.endpointId ? sql`endpoint_id = ${where.endpointId}` : sql`true`}
      and ${where.eventId ? sql`event_id = ${where.eventId}` : sql`true`}
    order by id`;
  return rows.map((r) => ({ ...r, nextAttemptAt: toDate(r.nextAttemptAt), lastAttemptAt: toDate(r.lastAttemptAt) }));
}

export async function attemptsOf(sql: Sql, where: { deliveryId?: string; endpointId?: string }): Promise<AttemptRow[]> {
  const rows = await sql<(Omit<AttemptRow, 'createdAt'> & { createdAt: number })[]>`
    select delivery_id as "deliveryId", attempt_number as "attemptNumber", response_status as "responseStatus",
           failure_kind as "failureKind", latency_ms as "latencyMs", response_body as "responseBody",
           (extract(epoch from created_at) * 1000)::float8 as "createdAt"
    from webhook_delivery_attempts
    where ${where.deliveryId ? sql`delivery_id = ${where.deliveryId}` : sql`true`}
      and ${where.endpointId ? sql`endpoint_id = ${where.endpointId}` : sql`true`}
    order by attempt_number, id`;
  return rows.map((r) => ({ ...r, createdAt: toDate(r.createdAt)! }));
}

export async function endpointRow(sql: Sql, id: string): Promise<EndpointRow> {
  const [row] = await sql<(Omit<EndpointRow, 'disabledAt' | 'failingSince'> & { disabledAt: number | null; failingSince: number | null })[]>`
    select id, enabled, disabled_reason as "disabledReason", (extract(epoch from disabled_at) * 1000)::float8 as "disabledAt",
           (extract(epoch from failing_since) * 1000)::float8 as "failingSince"
    from webhook_endpoints where id = ${id}`;
  if (!row) throw new Error(`no endpoint ${id}`);
  return { ...row, disabledAt: toDate(row.disabledAt), failingSince: toDate(row.failingSince) };
}

export async function outboxRow(sql: Sql, id: string): Promise<{ id: string; seq: number; payload: string; published: boolean }> {
  const [row] = await sql<{ id: string; seq: number; payload: string; published: boolean }[]>`
    select id, seq::int as seq, payload, published_at is not null as published from event_outbox where id = ${id}`;
  if (!row) throw new Error(`no outbox row ${id}`);
  return row;
}

/** Waits until the endpoint has `count` deliveries and `settled` holds for every one of them. */
export async function waitForDeliveries(
  sql: Sql,
  endpointId: string,
  count: number,
  settled: (delivery: DeliveryRow) => boolean = (d) => d.status !== 'pending',
  timeoutMs = 10_000,
): Promise<DeliveryRow[]> {
  let seen: DeliveryRow[] = [];
  try {
    return await waitUntil(
      `${count} settled deliveries of ${endpointId}`,
      async () => {
        seen = await deliveriesOf(sql, { endpointId });
        return seen.length === count && seen.every(settled) ? seen : undefined;
      },
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; seen ${JSON.stringify(seen.map((d) => ({ status: d.status, attempts: d.attemptCount })))}`);
  }
}

/** Ends a test's pending retries so a later test's pollDue() finds only its own work. */
export async function stopRetries(sql: Sql, endpointId: string): Promise<void> {
  await sql`update webhook_deliveries set status = 'failed', next_attempt_at = null where endpoint_id = ${endpointId} and status = 'pending'`;
}
