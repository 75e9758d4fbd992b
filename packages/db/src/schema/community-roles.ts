import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, idColumn } from './columns.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

/**
 * Roles a workspace grants people in its community (for example "og"), which the `holds_role`
 * requirement checks. Independent of dashboard membership: holders need not be members.
 */
export const communityRoles = pgTable(
  'community_roles',
  {
    workspaceId: idColumn('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: idColumn('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId, t.role] }),
    // A user's delete checks their roles in every workspace: the key above leads with the workspace.
    index('community_roles_user_idx').on(t.userId),
  ],
);
