import type { RelayedEvent } from '@raffle/contracts';
import { newId, type Sql } from '@raffle/db';

/** A delivery just created and claimed by this instance: its first attempt is due now. */
export type NewDelivery = { deliveryId: string; endpointId: string; eventId: string; eventType: string; payload: string };

/**
 * Turns relayed events into deliveries: one per enabled endpoint that subscribes to the event's
 * type and belongs to its user or workspace (or, for `webhook.test`, the one endpoint it names).
 * The (endpoint, event) unique key makes a redelivered message or a re-relayed row create
 * nothing twice; rows come back only for what this call created, already leased to this instance
 * so the due-delivery poller of another one leaves them alone. An endpoint gets only as many
 * leased rows as `roomFor` says this instance's queue can take; the rest are created due at once
 * and left to the pollers, rather than leased here and handed back row by row (a dead endpoint
 * would otherwise cost an extra update per event).
 */
export async function fanOut(
  sql: Sql,
  events: RelayedEvent[],
  now: Date,
  leaseMs: number,
  roomFor: (endpointId: string) => number = () => Number.POSITIVE_INFINITY,
): Promise<NewDelivery[]> {
  if (events.length === 0) return [];
  const targets = await sql<{ eventIndex: number; endpointId: string }[]>`
    select m.i::int as "eventIndex", e.id as "endpointId"
    from unnest(${events.map((e) => e.type)}::text[], ${events.map((e) => e.userId)}::text[], ${events.map((e) => e.workspaceId)}::text[],
                ${events.map((e) => e.endpointId)}::text[]) with ordinality as m(type, user_id, workspace_id, endpoint_id, i)
    join webhook_endpoints e on e.enabled and (
      case when m.endpoint_id is not null then e.id = m.endpoint_id
      else m.type = any(e.event_types) and (
        (m.user_id is not null and e.owner_kind = 'personal' and e.user_id = m.user_id)
        or (m.workspace_id is not null and e.owner_kind = 'workspace' and e.workspace_id = m.workspace_id))
      end)`;
  if (targets.length === 0) return [];
  const rows = targets.map((t) => {
    const event = events[t.eventIndex - 1]!;
    return { id: newId('webhookDelivery', now.getTime()), endpointId: t.endpointId, event };
  });
  const left = new Map<string, number>();
  const claims = rows.map((r) => {
    const room = left.get(r.endpointId) ?? roomFor(r.endpointId);
    left.set(r.endpointId, room - 1);
    return room > 0;
  });
  const leasedUntil = new Date(now.getTime() + leaseMs);
  // Booleans go as text[] too (drizzle's type handlers on the shared client; see outcome-recorder).
  const created = await sql<{ id: string }[]>`
    insert into webhook_deliveries (id, endpoint_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
    select id, endpoint_id, event_id, event_type, 'pending', 0,
           case when claimed then ${leasedUntil.toISOString()}::timestamptz else ${now.toISOString()}::timestamptz end,
           ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.endpointId)}::text[], ${rows.map((r) => r.event.id)}::text[],
                ${rows.map((r) => r.event.type)}::text[], ${claims.map(String)}::text[]::boolean[]) as v(id, endpoint_id, event_id, event_type, claimed)
    on conflict (endpoint_id, event_id) do nothing
    returning id`;
  const createdIds = new Set(created.map((c) => c.id));
  return rows
    .filter((r, i) => claims[i] && createdIds.has(r.id))
    .map((r) => ({ deliveryId: r.id, endpointId: r.endpointId, eventId: r.event.id, eventType: r.event.type, payload: r.event.payload }));
}
