import { sql } from 'drizzle-orm';
import { bigserial, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, timestampColumn } from './columns.js';

/**
 * The transactional outbox: a row exists iff its state change committed. The relay publishes
 * unpublished rows to JetStream (event id as Nats-Msg-Id) and then marks them.
 */
export const eventOutbox = pgTable(
  'event_outbox',
  {
    id: idColumn('id').primaryKey(),
    /** Commit-independent order hint for the relay; gaps and out-of-order commits are expected. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    /** Owner of a personal event. */
    userId: idColumn('user_id'),
    /** Owner of a workspace event. */
    workspaceId: idColumn('workspace_id'),
    /** Set for an event meant for one endpoint only (`webhook.test`), whatever it subscribes to. */
    endpointId: idColumn('endpoint_id'),
    /** The `{ type, timestamp, data }` envelope as it is delivered. */
    payload: text('payload').notNull(),
    /**
     * The W3C `traceparent` of the request that wrote the event, when tracing is on: the relay
     * and the webhook deliveries continue that trace.
     */
    traceContext: text('trace_context'),
    createdAt: createdAt(),
    publishedAt: timestampColumn('published_at'),
  },
  (t) => [index('event_outbox_unpublished_idx').on(t.seq).where(sql`${t.publishedAt} is null`)],
);
