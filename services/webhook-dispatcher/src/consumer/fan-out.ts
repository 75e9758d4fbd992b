import type { RelayedEvent } from '@raffle/contracts';
import { insertFanOutDeliveries, listFanOutTargets, newIdsInOrder, type Sql } from '@raffle/db';

/** A delivery just created and claimed by this instance: its first attempt is due now. */
export type NewDelivery = {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: string;
  traceContext: string | null;
  /** The endpoint's signing-secret version as the fan-out read it: a rotation before it must sign this delivery. */
  secretVersion: number;
};

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
  const targets = await listFanOutTargets(sql, events);
  if (targets.length === 0) return [];
  const left = new Map<string, number>();
  // The targets come in event order: an endpoint's delivery log lists them in it too.
  const ids = newIdsInOrder('webhookDelivery', targets.map(() => now.getTime()));
  const deliveries = targets.map((t, i) => {
    const event = events[t.eventIndex - 1]!;
    const room = left.get(t.endpointId) ?? roomFor(t.endpointId);
    left.set(t.endpointId, room - 1);
    return {
      id: ids[i]!,
      endpointId: t.endpointId,
      eventId: event.id,
      eventType: event.type,
      payload: event.payload,
      traceContext: event.traceContext ?? null,
      secretVersion: t.secretVersion,
      leased: room > 0,
    };
  });
  const created = new Set(await insertFanOutDeliveries(sql, { deliveries, now, leasedUntil: new Date(now.getTime() + leaseMs) }));
  return deliveries
    .filter((d) => d.leased && created.has(d.id))
    .map((d) => ({
      deliveryId: d.id,
      endpointId: d.endpointId,
      eventId: d.eventId,
      eventType: d.eventType,
      payload: d.payload,
      traceContext: d.traceContext,
      secretVersion: d.secretVersion,
    }));
}
