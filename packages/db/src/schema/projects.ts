import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, updatedAt } from './columns.js';
import { workspaces } from './workspaces.js';

export const projects = pgTable(
  'projects',
  {
    id: idColumn('id').primaryKey(),
    workspaceId: idColumn('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    logoUrl: text('logo_url'),
    description: text('description'),
    websiteUrl: text('website_url'),
    chain: text('chain'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The data-plane `Project` JSON, rendered at write time. */
    apiJson: text('api_json').notNull(),
  },
  (t) => [
    uniqueIndex('projects_workspace_slug_idx').on(t.workspaceId, t.slug),
    index('projects_workspace_page_idx').on(t.workspaceId, t.id),
  ],
);
