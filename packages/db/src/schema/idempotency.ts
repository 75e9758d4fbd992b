import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, timestampColumn } from './columns.js';

/** The first response to an `Idempotency-Key`, replayed for the same key and body. */
export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    apiKeyId: idColumn('api_key_id').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** sha256 of the request body: a different body under the same key is a conflict. */
    requestHash: text('request_hash').notNull(),
    /** in_progress | completed */
    state: text('state').notNull(),
    /**
     * The request holding an in_progress record, a random value it made before claiming: a request
     * that failed releases its own claim and never one taken over since, even when it never learned
     * whether its claim committed. Null on records claimed before tokens existed.
     */
    claimToken: uuid('claim_token'),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
    expiresAt: timestampColumn('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.key] }), index('idempotency_records_expiry_idx').on(t.expiresAt)],
);
