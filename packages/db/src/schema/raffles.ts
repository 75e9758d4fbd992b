import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, timestampColumn, updatedAt } from './columns.js';
import { projects } from './projects.js';
import { workspaces } from './workspaces.js';

export type RaffleRequirement = { id: string; type: string; label: string; params: Record<string, unknown> };
export type RaffleSettings = {
  autoDraw: boolean;
  autoFinalize: boolean;
  excludeFlaggedDuplicates: boolean;
  /** What each winner's allowlist leaf allows them to mint (issue 35). */
  allowlistQuantity: number;
  /** Whether the keyless public route lists every leaf of the allowlist, not only its root. */
  allowlistPublic: boolean;
  /** ISO time until which winners may name the wallet their leaf is for; the allowlist is built after it. Null: the entry's wallet. */
  walletDeadline: string | null;
};

export const raffles = pgTable(
  'raffles',
  {
    id: idColumn('id').primaryKey(),
    workspaceId: idColumn('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /**
     * Unique in its workspace; unique across workspaces once published, since personal and
     * public routes address published raffles by slug alone. A draft's slug says nothing to
     * another workspace (decision 0008).
     */
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    mechanic: text('mechanic').notNull(),
    allocationType: text('allocation_type').notNull(),
    visibility: text('visibility').notNull(),
    status: text('status').notNull(),
    spots: integer('spots').notNull(),
    /**
     * Unused since decision 0029 (an FCFS raffle's spots are rows of `fcfs_spots`): the counters of
     * decision 0009, no longer read or written. Dropped by a later migration, once no running
     * version of the services writes them (a rolling deploy runs the old one beside the new).
     */
    positionsTaken: integer('positions_taken').notNull().default(0),
    positionsFreed: integer('positions_freed').notNull().default(0),
    chain: text('chain'),
    allowAutoEntry: boolean('allow_auto_entry').notNull().default(false),
    requirements: jsonb('requirements').$type<RaffleRequirement[]>().notNull().default([]),
    settings: jsonb('settings').$type<RaffleSettings>().notNull(),
    canonicalProjectId: idColumn('canonical_project_id').references(() => projects.id, { onDelete: 'set null' }),
    startsAt: timestampColumn('starts_at'),
    endsAt: timestampColumn('ends_at'),
    publishedAt: timestampColumn('published_at'),
    openedAt: timestampColumn('opened_at'),
    closedAt: timestampColumn('closed_at'),
    drawnAt: timestampColumn('drawn_at'),
    finalizedAt: timestampColumn('finalized_at'),
    cancelledAt: timestampColumn('cancelled_at'),
    /** Secret 32-byte seed (hex) generated at publish; revealed only once the raffle is drawn. */
    drawSeed: text('draw_seed'),
    /** sha256(seed), public from publish on. */
    drawCommitment: text('draw_commitment'),
    /**
     * The draw algorithm the commitment is for, bound at publish and public with it (issue 34): a
     * weighted raffle's is `es-hmac-sha256-drand-v1`, so a proof relabelled to the seed-only
     * algorithm fails against the raffle's own record. Null for other mechanics and for raffles
     * published before migration 0020 (whose record still binds the beacon draw by `beaconRound`).
     */
    drawAlgorithm: text('draw_algorithm'),
    /** sha256 of the eligible entries' canonical lines, fixed at draw. */
    entriesDigest: text('entries_digest'),
    /**
     * The beacon round the draw mixes in, fixed at close: the round current at closedAt plus 2
     * (decision 0022). Null before the close, after a cancel, and on raffles closed before the
     * rule existed.
     */
    beaconRound: bigint('beacon_round', { mode: 'number' }),
    /** The chain (drand chain hash, hex) `beaconRound` belongs to: the chain pinned when it closed. */
    beaconChainHash: text('beacon_chain_hash'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The `WorkspaceRaffleItem` JSON, rendered at write time so lists only concatenate. */
    workspaceItemJson: text('workspace_item_json').notNull(),
    /** The `PublicRaffleItem` JSON, rendered at write time. */
    publicItemJson: text('public_item_json').notNull(),
  },
  (t) => [
    uniqueIndex('raffles_workspace_slug_unique').on(t.workspaceId, t.slug),
    // published_at is kept by a cancel, so a slug once public is never handed to another raffle.
    uniqueIndex('raffles_published_slug_unique').on(t.slug).where(sql`${t.publishedAt} is not null`),
    index('raffles_workspace_page_idx').on(t.workspaceId, t.id),
    // A project rename or delete re-renders the raffles that name it.
    index('raffles_canonical_project_idx').on(t.canonicalProjectId).where(sql`${t.canonicalProjectId} is not null`),
    index('raffles_public_page_idx')
      .on(t.publishedAt.desc(), t.id.desc())
      .where(sql`${t.visibility} = 'public' and ${t.status} in ('scheduled', 'open', 'closed', 'drawn', 'finalized')`),
    index('raffles_due_to_open_idx').on(t.startsAt).where(sql`${t.status} = 'scheduled'`),
    index('raffles_due_to_close_idx').on(t.endsAt).where(sql`${t.status} = 'open'`),
  ],
);
