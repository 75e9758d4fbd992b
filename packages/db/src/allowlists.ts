import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from './client.js';
import { keysetReadSize } from './queries/keyset.js';
import { raffleAllowlistBuilds, raffleAllowlistLeaves, raffleAllowlists } from './schema/allowlists.js';
import { raffles } from './schema/raffles.js';
import { wins } from './schema/wins.js';

// A raffle's allowlist (issue 35): the queue of builds, the published versions, their leaves and
// the tree nodes proofs are read from. The tree arithmetic is @raffle/domain's.

export type AllowlistVersionRow = Omit<typeof raffleAllowlists.$inferSelect, 'tree'>;
export type AllowlistLeafRow = { address: string; quantity: string; treeIndex: number };
export type AllowlistBuildRow = typeof raffleAllowlistBuilds.$inferSelect;
/** A finalized win as its allowlist leaf sees it: the wallet the winner named, else the entry's. */
export type AllowlistWinnerRow = { winId: string; userId: string; wallet: string | null };

const NODE_BYTES = 32;
const LEAF_INSERT_BATCH = 5_000;
const versionColumns = {
  raffleId: raffleAllowlists.raffleId,
  version: raffleAllowlists.version,
  root: raffleAllowlists.root,
  leafCount: raffleAllowlists.leafCount,
  unlistedWinners: raffleAllowlists.unlistedWinners,
  reason: raffleAllowlists.reason,
  publishedAt: raffleAllowlists.publishedAt,
};

/**
 * Asks for a (re)build, in the transaction that finalized the raffle or changed its finalized
 * winners. A later request moves `requestedAt` on, so a builder that read the winners before it
 * leaves the row for another build; `notBefore` is the wallet deadline while winners may still
 * name wallets.
 */
export async function requestAllowlistBuild(tx: DbOrTx, args: { raffleId: string; requestedAt: Date; notBefore: Date }): Promise<void> {
  await tx
    .insert(raffleAllowlistBuilds)
    .values({ raffleId: args.raffleId, requestedAt: args.requestedAt, notBefore: args.notBefore })
    .onConflictDoUpdate({
      target: raffleAllowlistBuilds.raffleId,
      set: { requestedAt: sql`greatest(${raffleAllowlistBuilds.requestedAt}, excluded.requested_at)`, notBefore: sql`excluded.not_before` },
    });
}

/**
 * Takes the next due build for `leaseMs` (one builder per raffle at a time, any number of
 * builders), in its own short transaction: the build itself runs with no lock held. Null when
 * nothing is due. `raffleId` takes only that raffle's build.
 */
export async function claimAllowlistBuild(db: Db, args: { now: Date; leaseMs: number; raffleId?: string }): Promise<AllowlistBuildRow | null> {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select()
      .from(raffleAllowlistBuilds)
      .where(
        and(
          lte(raffleAllowlistBuilds.notBefore, args.now),
          or(isNull(raffleAllowlistBuilds.claimedUntil), lte(raffleAllowlistBuilds.claimedUntil, args.now)),
          args.raffleId === undefined ? undefined : eq(raffleAllowlistBuilds.raffleId, args.raffleId),
        ),
      )
      .orderBy(asc(raffleAllowlistBuilds.notBefore))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return null;
    const [claimed] = await tx
      .update(raffleAllowlistBuilds)
      .set({ claimedUntil: new Date(args.now.getTime() + args.leaseMs), attempts: sql`${raffleAllowlistBuilds.attempts} + 1` })
      .where(eq(raffleAllowlistBuilds.raffleId, due.raffleId))
      .returning();
    return claimed ?? null;
  });
}

/** The build done: the request is cleared unless a newer one came in meanwhile (then it is built again). */
export async function completeAllowlistBuild(tx: DbOrTx, args: { raffleId: string; requestedAt: Date }): Promise<void> {
  await tx.delete(raffleAllowlistBuilds).where(and(eq(raffleAllowlistBuilds.raffleId, args.raffleId), lte(raffleAllowlistBuilds.requestedAt, args.requestedAt)));
  await tx.update(raffleAllowlistBuilds).set({ claimedUntil: null }).where(eq(raffleAllowlistBuilds.raffleId, args.raffleId));
}

/** A failed build: released to be tried again after `retryAt`, with why (a code, never a query's text). */
export async function failAllowlistBuild(db: DbOrTx, args: { raffleId: string; retryAt: Date; error: string }): Promise<void> {
  await db.update(raffleAllowlistBuilds).set({ claimedUntil: args.retryAt, lastError: args.error }).where(eq(raffleAllowlistBuilds.raffleId, args.raffleId));
}

export async function findAllowlistBuild(db: DbOrTx, raffleId: string): Promise<AllowlistBuildRow | null> {
  const [row] = await db.select().from(raffleAllowlistBuilds).where(eq(raffleAllowlistBuilds.raffleId, raffleId));
  return row ?? null;
}

/** The finalized winners, by position, with the wallet each one's leaf is for. */
export async function listAllowlistWinners(db: DbOrTx, raffleId: string): Promise<AllowlistWinnerRow[]> {
  return db
    .select({ winId: wins.id, userId: wins.userId, wallet: sql<string | null>`coalesce(${wins.allowlistWallet}, ${wins.walletSnapshot})` })
    .from(wins)
    .where(and(eq(wins.raffleId, raffleId), eq(wins.status, 'finalized')))
    .orderBy(asc(wins.position), asc(wins.id));
}

/**
 * Publishes the next version: its row, its tree (`nodes`, 32 bytes each, in tree order) and its
 * leaves, numbered after the raffle's latest. The caller holds the build's claim and appends the
 * event in the same transaction.
 */
export async function insertAllowlistVersion(
  tx: DbOrTx,
  args: { raffleId: string; root: string; unlistedWinners: number; reason: string; nodes: Buffer; leaves: readonly AllowlistLeafRow[]; publishedAt: Date },
): Promise<AllowlistVersionRow> {
  // The raffle's row lock orders two publishes of one raffle (a lease that ran out mid-build).
  await tx.select({ id: raffles.id }).from(raffles).where(eq(raffles.id, args.raffleId)).for('no key update');
  const [latest] = await tx.select({ version: raffleAllowlists.version }).from(raffleAllowlists).where(eq(raffleAllowlists.raffleId, args.raffleId)).orderBy(desc(raffleAllowlists.version)).limit(1);
  const version = (latest?.version ?? 0) + 1;
  const [row] = await tx
    .insert(raffleAllowlists)
    .values({ raffleId: args.raffleId, version, root: args.root, leafCount: args.leaves.length, unlistedWinners: args.unlistedWinners, reason: args.reason, tree: args.nodes, publishedAt: args.publishedAt })
    .returning(versionColumns);
  for (let start = 0; start < args.leaves.length; start += LEAF_INSERT_BATCH) {
    const batch = args.leaves.slice(start, start + LEAF_INSERT_BATCH);
    // One statement and one parameter per batch, whatever its size (as listVerifiedWallets passes lists).
    await tx.execute(sql`
      insert into raffle_allowlist_leaves (raffle_id, version, address, quantity, tree_index)
      select ${args.raffleId}, ${version}, t.address, t.quantity, t.tree_index
      from jsonb_to_recordset(${JSON.stringify(batch.map((l) => ({ address: l.address, quantity: l.quantity, tree_index: l.treeIndex })))}::jsonb)
        as t(address text, quantity text, tree_index int)`);
  }
  return row!;
}

/**
 * Refreshes the planner's statistics of the leaves, after a version is published. A page of
 * leaves is an index scan of the primary key in address order, but while the statistics predate
 * a big version the planner expects a few rows and reads the whole version and sorts it instead:
 * 45 ms a page of a 100,000-leaf version against 0.03 ms (bench:allowlist), until autovacuum
 * analyzes the table, which it may never do (autovacuum off) or only after a while. SKIP_LOCKED:
 * another analyze of the table (another builder, autovacuum) does the same, so none waits for it.
 */
export async function analyzeAllowlistLeaves(db: DbOrTx): Promise<void> {
  await db.execute(sql`analyze (skip_locked) raffle_allowlist_leaves`);
}

/** Every published version of the raffle, newest first. */
export async function listAllowlistVersions(db: DbOrTx, raffleId: string): Promise<AllowlistVersionRow[]> {
  return db.select(versionColumns).from(raffleAllowlists).where(eq(raffleAllowlists.raffleId, raffleId)).orderBy(desc(raffleAllowlists.version));
}

/** One page of a version's leaves in address order, after `after` (a lowercase address); `address` narrows it to one. */
export async function pageAllowlistLeaves(
  db: DbOrTx,
  args: { raffleId: string; version: number; after: string | null; limit: number; address?: string },
): Promise<AllowlistLeafRow[]> {
  const leaves = raffleAllowlistLeaves;
  return db
    .select({ address: leaves.address, quantity: leaves.quantity, treeIndex: leaves.treeIndex })
    .from(leaves)
    .where(
      and(
        eq(leaves.raffleId, args.raffleId),
        eq(leaves.version, args.version),
        args.after === null ? undefined : gt(leaves.address, args.after),
        args.address === undefined ? undefined : eq(leaves.address, args.address),
      ),
    )
    .orderBy(asc(leaves.address))
    .limit(keysetReadSize(args.limit));
}

/** The leaves of these addresses (lowercase) in a version; absent ones are not on it. */
export async function findAllowlistLeaves(db: DbOrTx, args: { raffleId: string; version: number; addresses: readonly string[] }): Promise<AllowlistLeafRow[]> {
  if (args.addresses.length === 0) return [];
  const leaves = raffleAllowlistLeaves;
  return db
    .select({ address: leaves.address, quantity: leaves.quantity, treeIndex: leaves.treeIndex })
    .from(leaves)
    .where(and(eq(leaves.raffleId, args.raffleId), eq(leaves.version, args.version), inArray(leaves.address, [...args.addresses])));
}

/**
 * The tree nodes at `indexes` of a version, as 0x-hex by index: each a 32-byte slice of the
 * stored tree, read without loading the rest of it (the column is stored EXTERNAL).
 */
export async function readAllowlistNodes(db: DbOrTx, args: { raffleId: string; version: number; indexes: readonly number[] }): Promise<Map<number, string>> {
  const unique = [...new Set(args.indexes)];
  if (unique.length === 0) return new Map();
  const result = await db.execute<{ index: number; node: string }>(sql`
    select i as index, '0x' || encode(substring(a.tree from i * ${NODE_BYTES} + 1 for ${NODE_BYTES}), 'hex') as node
    from raffle_allowlists a, (select jsonb_array_elements_text(${JSON.stringify(unique)}::jsonb)::int as i) n
    where a.raffle_id = ${args.raffleId} and a.version = ${args.version}`);
  return new Map(result.map((r) => [Number(r.index), r.node]));
}

/** Names the wallet a live win's allowlist leaf is for (null: back to the entry's wallet). */
export async function setWinAllowlistWallet(tx: DbOrTx, args: { winId: string; wallet: string | null }): Promise<void> {
  await tx.update(wins).set({ allowlistWallet: args.wallet }).where(eq(wins.id, args.winId));
}

/** What an allowlist needs of its raffle. */
export type AllowlistRaffleRow = Pick<typeof raffles.$inferSelect, 'id' | 'slug' | 'workspaceId' | 'status' | 'allocationType' | 'settings' | 'chain' | 'visibility'>;
const allowlistRaffleColumns = {
  id: raffles.id,
  slug: raffles.slug,
  workspaceId: raffles.workspaceId,
  status: raffles.status,
  allocationType: raffles.allocationType,
  settings: raffles.settings,
  chain: raffles.chain,
  visibility: raffles.visibility,
};

export async function findAllowlistRaffle(db: DbOrTx, raffleId: string): Promise<AllowlistRaffleRow | null> {
  const [row] = await db.select(allowlistRaffleColumns).from(raffles).where(eq(raffles.id, raffleId));
  return row ?? null;
}

/** The caller's live win of the raffle (selected or finalized), if any, with the wallet its leaf is for. */
export async function findLiveWinOfUser(db: DbOrTx, args: { raffleId: string; userId: string }): Promise<(AllowlistWinnerRow & { status: string }) | null> {
  const [row] = await db
    .select({ winId: wins.id, userId: wins.userId, status: wins.status, wallet: sql<string | null>`coalesce(${wins.allowlistWallet}, ${wins.walletSnapshot})` })
    .from(wins)
    .where(and(eq(wins.raffleId, args.raffleId), eq(wins.userId, args.userId), inArray(wins.status, ['selected', 'finalized'])))
    .limit(1);
  return row ?? null;
}

/** Whether `address` (any case) is one of the user's verified wallets on `chain` (any chain when null). */
export async function isVerifiedWalletOf(db: DbOrTx, args: { userId: string; address: string; chain: string | null }): Promise<boolean> {
  const rows = await db.execute<{ found: number }>(sql`
    select 1 as found from user_wallets w
    where w.user_id = ${args.userId} and w.verified and lower(w.address) = ${args.address.toLowerCase()}
      ${args.chain === null ? sql`` : sql`and w.chain = ${args.chain}`}
    limit 1`);
  return rows.length > 0;
}
