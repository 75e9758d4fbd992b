import { context, propagation } from '@opentelemetry/api';
import { OUTBOX_NOTIFY_CHANNEL, type WebhookEventType } from '@raffle/contracts';
import { sql } from 'drizzle-orm';
import { rawTransactionOf, type DbOrTx } from '../client.js';
import { newIdsInOrder } from '../ids.js';
import { noteEventsAppended } from '../outbox-wake.js';

/** Who receives an event: the personal endpoints of one user, or the endpoints of one workspace. */
export type EventAudience = { userId: string } | { workspaceId: string };

export type NewEvent = {
  type: WebhookEventType;
  audience: EventAudience;
  /** The resource exactly as the data plane renders it for this audience. */
  data: unknown;
  at: Date;
  /** Only for events meant for one endpoint (`webhook.test`). */
  endpointId?: string;
};

/**
 * Records an event in the outbox. Call it inside the transaction that makes the state change:
 * the row then exists exactly when the change committed, and the relay publishes it later.
 * `data` may be a pre-rendered JSON string (the stored representations are), spliced in as is.
 * Returns the new events' ids, in order.
 */
export async function appendEvents(tx: DbOrTx, events: NewEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const traceContext = activeTraceparent();
  // In the order given, ids and seq alike: consumers read a transaction's events in that order.
  const ids = newIdsInOrder('event', events.map((e) => e.at.getTime()));
  const rows = events.map((e, i) => {
    const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
    return {
      id: ids[i]!,
      type: e.type,
      userId: 'userId' in e.audience ? e.audience.userId : null,
      workspaceId: 'workspaceId' in e.audience ? e.audience.workspaceId : null,
      endpointId: e.endpointId ?? null,
      payload: `{"type":${JSON.stringify(e.type)},"timestamp":${JSON.stringify(e.at.toISOString())},"data":${data}}`,
      createdAt: e.at,
    };
  });
  // One statement whatever the count (the columns go as arrays), written by hand: every entry
  // appends its events, and drizzle's builder cost more CPU than the insert (issue 13).
  const raw = rawTransactionOf(tx);
  // Timestamps go as text: drizzle switches postgres.js's serialising of timestamp arrays off.
  await raw`insert into event_outbox (id, type, user_id, workspace_id, endpoint_id, payload, created_at, trace_context)
    select id, type, user_id, workspace_id, endpoint_id, payload, created_at::timestamptz, ${traceContext}::text
    from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.type)}::text[], ${rows.map((r) => r.userId)}::text[],
      ${rows.map((r) => r.workspaceId)}::text[], ${rows.map((r) => r.endpointId)}::text[], ${rows.map((r) => r.payload)}::text[],
      ${rows.map((r) => r.createdAt.toISOString())}::text[]) with ordinality as e(id, type, user_id, workspace_id, endpoint_id, payload, created_at, n)
    order by e.n`;
  // The relay wakes once this commits (not on rollback) instead of waiting for its poll: after the
  // commit where the transaction allows it (outbox-wake.ts), otherwise by a NOTIFY delivered at commit.
  if (!noteEventsAppended(tx)) await tx.execute(sql`select pg_notify(${OUTBOX_NOTIFY_CHANNEL}, '')`);
  return rows.map((r) => r.id);
}

/** The active trace as a W3C `traceparent`, or null when tracing is off or nothing is traced. */
export function activeTraceparent(): string | null {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}
