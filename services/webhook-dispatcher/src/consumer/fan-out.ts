import type { RelayedEvent } from '@raffle/contracts';
import { newId, type Sql } from '@raffle/db';

/** A delivery just created and claimed by this instance: its first attempt is due now. */
export type NewDelivery = { deliveryId: string; endpointId: string; eventId: string; eventType: string; payload: string };

/**
 * Turns relayed events into deliveries: one per enabled endpoint that subscribes to the event's
 * type and belongs to its user or workspace (or, for `webhook.test`, the one endpoint it names).
 * The (endpoint, event) unique key makes a redelivered message or a re-relayed row create
 * nothing twice; rows come back only for what this call created, already leased to this instance
 * so the due-delivery poller of another one leaves them alone.
 */
export async function fanOut(sql: Sql, events: RelayedEvent[], now: Date, leaseMs: number): Promise<NewDelivery[]> {
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
  const leasedUntil = new Date(now.getTime() + leaseMs);
  const created = await sql<{ id: string }[]>`
    insert into webhook_deliveries (id, endpoint_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
    select id, endpoint_id, event_id, event_type, 'pending', 0, ${leasedUntil.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.endpointId)}::text[], ${rows.map((r) => r.event.id)}::text[],
                ${rows.map((r) => r.event.type)}::text[]) as v(id, endpoint_id, event_id, event_type)
    on conflict (endpoint_id, event_id) do nothing
    returning id`;
  const createdIds = new Set(created.map((c) => c.id));
  return rows
    .filter((r) => createdIds.has(r.id))
    .map((r) => ({ deliveryId: r.id, endpointId: r.endpointId, eventId: r.event.id, eventType: r.event.type, payload: r.event.payload }));
}
