import type { Sql } from '../client.js';

/** A delivery to create; `leased` ones are due only when `leasedUntil` passes (their creator sends them first). */
export type FanOutDelivery = { id: string; endpointId: string; eventId: string; eventType: string; leased: boolean };

/**
 * Creates pending deliveries, leased ones due at `leasedUntil` and the rest due at `now`. The
 * (endpoint, event) unique key makes a repeat create nothing; returns the ids this call created.
 */
export async function insertFanOutDeliveries(
  sql: Sql,
  args: { deliveries: readonly FanOutDelivery[]; now: Date; leasedUntil: Date },
): Promise<string[]> {
  if (args.deliveries.length === 0) return [];
  const rows = args.deliveries;
  // Times and booleans go as text: the shared postgres.js client carries drizzle's type handlers,
  // which serialise neither Date parameters nor boolean arrays.
  const created = await sql<{ id: string }[]>`
    insert into webhook_deliveries (id, endpoint_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
    select id, endpoint_id, event_id, event_type, 'pending', 0,
           case when claimed then ${args.leasedUntil.toISOString()}::timestamptz else ${args.now.toISOString()}::timestamptz end,
           ${args.now.toISOString()}::timestamptz, ${args.now.toISOString()}::timestamptz
    from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.endpointId)}::text[], ${rows.map((r) => r.eventId)}::text[],
                ${rows.map((r) => r.eventType)}::text[], ${rows.map((r) => String(r.leased))}::text[]::boolean[]) as v(id, endpoint_id, event_id, event_type, claimed)
    on conflict (endpoint_id, event_id) do nothing
    returning id`;
  return created.map((c) => c.id);
}
