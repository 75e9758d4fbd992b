import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, timestampColumn, updatedAt } from './columns.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: idColumn('id').primaryKey(),
    /** personal | workspace */
    ownerKind: text('owner_kind').notNull(),
    userId: idColumn('user_id').references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: idColumn('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    eventTypes: text('event_types').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** `whsec_…`; needed in plaintext to sign, so it lives only here and in delivery memory. */
    secret: text('secret').notNull(),
    /** After a rotation the old secret signs alongside the new one until this time. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestampColumn('previous_secret_expires_at'),
    disabledReason: text('disabled_reason'),
    disabledAt: timestampColumn('disabled_at'),
    /** Start of the current run of failed deliveries; cleared by any success. */
    failingSince: timestampColumn('failing_since'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhook_endpoints_user_page_idx').on(t.userId, t.id),
    index('webhook_endpoints_workspace_page_idx').on(t.workspaceId, t.id),
  ],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: idColumn('id').primaryKey(),
    endpointId: idColumn('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: idColumn('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** pending | succeeded | failed (retries exhausted or endpoint disabled) */
    status: text('status').notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestampColumn('next_attempt_at'),
    lastAttemptAt: timestampColumn('last_attempt_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Also serves every lookup by endpoint (its deliveries deleted, recovered, failed): a second
    // index led by endpoint_id cost every delivery two more index entries (created, then settled).
    uniqueIndex('webhook_deliveries_endpoint_event_idx').on(t.endpointId, t.eventId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: idColumn('id').primaryKey(),
    deliveryId: idColumn('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: idColumn('endpoint_id').notNull(),
    attemptNumber: integer('attempt_number').notNull(),
    responseStatus: integer('response_status'),
    /** timeout | network | redirect | blocked_address | http_status */
    failureKind: text('failure_kind'),
    latencyMs: integer('latency_ms').notNull(),
    /** At most 1 KB of the response body. */
    responseBody: text('response_body'),
    /**
     * The next attempt this one scheduled, kept as it was: the delivery's own next_attempt_at
     * moves on with every later attempt. Null when none followed (success, given up) and on
     * attempts recorded before migration 0008.
     */
    nextAttemptAt: timestampColumn('next_attempt_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_attempts_endpoint_page_idx').on(t.endpointId, t.id),
    index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptNumber),
  ],
);
