import { customType, foreignKey, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idColumn, timestampColumn } from './columns.js';
import { raffles } from './raffles.js';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Every published version of a raffle's allowlist (issue 35): the Merkle root a mint contract
 * checks, and the tree it came from. Versions are never updated or deleted while the raffle lives:
 * a reroll after finalize publishes version n+1 beside n, so a swapped list shows on the record.
 */
export const raffleAllowlists = pgTable(
  'raffle_allowlists',
  {
    raffleId: idColumn('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** 0x + 64 hex: the StandardMerkleTree root. */
    root: text('root').notNull(),
    leafCount: integer('leaf_count').notNull(),
    /** Finalized winners left off because they had no wallet on the raffle's chain. */
    unlistedWinners: integer('unlisted_winners').notNull(),
    /** Why this version was built: 'finalized' (the first) or 'winners_changed' (a disqualification or reroll after it). */
    reason: text('reason').notNull(),
    /**
     * The tree's nodes, 32 bytes each, in StandardMerkleTree's array order (root first, leaves at
     * the end). Stored EXTERNAL (uncompressed, migration 0021): a proof reads its ~log2(n) sibling
     * nodes by offset, fetching only the TOAST chunks that hold them, never the whole tree.
     */
    tree: bytea('tree').notNull(),
    publishedAt: timestampColumn('published_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.raffleId, t.version] })],
);

/** The leaves of one version: which node of its tree each (address, quantity) is. */
export const raffleAllowlistLeaves = pgTable(
  'raffle_allowlist_leaves',
  {
    raffleId: idColumn('raffle_id').notNull(),
    version: integer('version').notNull(),
    /** Lowercase 0x + 40 hex: the keyset order of the leaf pages and the lookup key. */
    address: idColumn('address').notNull(),
    /** A decimal uint256. */
    quantity: text('quantity').notNull(),
    treeIndex: integer('tree_index').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.raffleId, t.version, t.address] }),
    foreignKey({ columns: [t.raffleId, t.version], foreignColumns: [raffleAllowlists.raffleId, raffleAllowlists.version], name: 'raffle_allowlist_leaves_version_fk' }).onDelete('cascade'),
  ],
);

/**
 * A raffle whose allowlist must be (re)built: set in the transaction that finalizes it or changes
 * its finalized winners, cleared by the builder that published a version from winners read after
 * `requestedAt`. One row per raffle: several changes before a build make one version.
 */
export const raffleAllowlistBuilds = pgTable(
  'raffle_allowlist_builds',
  {
    raffleId: idColumn('raffle_id')
      .primaryKey()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    requestedAt: timestampColumn('requested_at').notNull(),
    /** Not built before this time: the raffle's wallet deadline, while winners may still name a wallet. */
    notBefore: timestampColumn('not_before').notNull(),
    /** A builder holds it until then; after, another may take it (the first died mid-build). */
    claimedUntil: timestampColumn('claimed_until'),
    attempts: integer('attempts').notNull().default(0),
    /** Why the last attempt failed (a code, never a query's text). */
    lastError: text('last_error'),
  },
  (t) => [index('raffle_allowlist_builds_due_idx').on(t.notBefore)],
);
