import { OUTBOX_NOTIFY_CHANNEL, type WebhookEventType } from '@raffle/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { newId } from '../ids.js';
import { noteEventsAppended } from '../outbox-wake.js';
import { eventOutbox } from '../schema/outbox.js';

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
  const rows = events.map((e) => {
    const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
    return {
      id: newId('event', e.at.getTime()),
      type: e.type,
      userId: 'userId' in e.audience ? e.audience.userId : null,
      workspaceId: 'workspaceId' in e.audience ? e.audience.workspaceId : null,
      endpointId: e.endpointId ?? null,
      payload: `{"type":${JSON.stringify(e.type)},"timestamp":${JSON.stringify(e.at.toISOString())},"data":${data}}`,
      createdAt: e.at,
    };
  });
  // Large draws emit thousands of events: insert in chunks well under the bind-parameter limit.
  for (let i = 0; i < rows.length; i += 5000) await tx.insert(eventOutbox).values(rows.slice(i, i + 5000));
  // The relay wakes once this commits (not on rollback) instead of waiting for its poll: after the
  // commit where the transaction allows it (outbox-wake.ts), otherwise by a NOTIFY delivered at commit.
  if (!noteEventsAppended(tx)) await tx.execute(sql`select pg_notify(${OUTBOX_NOTIFY_CHANNEL}, '')`);
  return rows.map((r) => r.id);
}
