import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, timestampColumn, updatedAt } from './columns.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: idColumn('id').primaryKey(),
    /** personal | workspace */
    kind: text('kind').notNull(),
    /** The owner of a personal key; the creator of a workspace key. */
    userId: idColumn('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: idColumn('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** sha256 of the full key, hex. The plaintext is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    lastFour: text('last_four').notNull(),
    scopes: text('scopes').array().notNull(),
    expiresAt: timestampColumn('expires_at'),
    revokedAt: timestampColumn('revoked_at'),
    lastUsedAt: timestampColumn('last_used_at'),
    /** The key this one was rolled from, if any. */
    rolledFromId: idColumn('rolled_from_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('api_keys_user_page_idx').on(t.userId, t.kind, t.id), index('api_keys_workspace_page_idx').on(t.workspaceId, t.id)],
);
