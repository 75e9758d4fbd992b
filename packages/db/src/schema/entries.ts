import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { DuplicateFlags } from '@raffle/contracts';
import { createdAt, idColumn, timestampColumn, updatedAt } from './columns.js';
import { raffles } from './raffles.js';
import { users } from './users.js';

export const entries = pgTable(
  'entries',
  {
    id: idColumn('id').primaryKey(),
    raffleId: idColumn('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    userId: idColumn('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    source: text('source').notNull(),
    entryWeight: numeric('entry_weight', { precision: 20, scale: 6 }).notNull().default('1'),
    walletSnapshot: text('wallet_snapshot'),
    statusReason: text('status_reason'),
    duplicateFlags: jsonb('duplicate_flags').$type<DuplicateFlags>().notNull().default({}),
    /** HMAC of the entrant's IP under a server key: reuse is detectable, the IP is not stored. */
    ipHash: text('ip_hash'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The `WorkspaceEntry` JSON, rendered at write time. */
    workspaceJson: text('workspace_json').notNull(),
    /** The `SanitizedEntry` JSON its owner sees, rendered at write time. */
    ownerJson: text('owner_json').notNull(),
  },
  (t) => [
    uniqueIndex('entries_one_per_user_idx').on(t.raffleId, t.userId),
    index('entries_raffle_page_idx').on(t.raffleId, t.id),
    index('entries_user_page_idx').on(t.userId, t.id),
    // Only the entries that carry the signal: they are looked up by equality (a twin shares a
    // wallet or an IP, never a null), and an entrant without a wallet, the common case, then costs
    // no insert here (decision 0034).
    index('entries_wallet_idx').on(t.raffleId, t.walletSnapshot).where(sql`${t.walletSnapshot} is not null`),
    index('entries_ip_idx').on(t.raffleId, t.ipHash).where(sql`${t.ipHash} is not null`),
    // The resolver's queue (decision 0027): pending entries are few and short-lived, so only they are indexed.
    index('entries_pending_idx').on(t.id).where(sql`${t.status} = 'pending'`),
  ],
);

/** One requirement's verdict for one entry; `evidence` is private and never leaves the platform. */
export const entryRequirementEvaluations = pgTable(
  'entry_requirement_evaluations',
  {
    entryId: idColumn('entry_id')
      .notNull()
      .references(() => entries.id, { onDelete: 'cascade' }),
    requirementId: text('requirement_id').notNull(),
    type: text('type').notNull(),
    label: text('label').notNull(),
    passed: boolean('passed').notNull(),
    /** What the entrant is shown of the verdict ("holds 0 Nebula Pass, needs 1"); about them only, never a wallet. */
    detail: text('detail'),
    evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull().default({}),
    evaluatedAt: timestampColumn('evaluated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.requirementId] })],
);
