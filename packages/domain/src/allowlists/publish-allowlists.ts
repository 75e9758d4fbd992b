import type { AllowlistPublished } from '@raffle/contracts';
import {
  analyzeAllowlistLeaves,
  appendEvents,
  claimAllowlistBuild,
  completeAllowlistBuild,
  failAllowlistBuild,
  findAllowlistRaffle,
  insertAllowlistVersion,
  listAllowlistVersions,
  listAllowlistWinners,
  type AllowlistBuildRow,
  type AllowlistLeafRow,
  type AllowlistVersionRow,
  type AllowlistWinnerRow,
  type Db,
} from '@raffle/db';
import { isAddress } from 'viem';
import type { Clock } from '../clock.js';
import { isDomainError } from '../errors.js';
import { allowlistSettingsOf, hasAllowlist } from './allowlist-settings.js';
import { hashAllowlistTree } from './hash-allowlist-tree.js';

/** The root of a version with no leaves: no proof folds to it, so it admits nobody. */
export const EMPTY_ALLOWLIST_ROOT = `0x${'0'.repeat(64)}`;

/** A builder holds a raffle's build this long; one that dies mid-build frees it then. */
const BUILD_LEASE_MS = 5 * 60_000;
/** A failed build is tried again after this long. */
const RETRY_AFTER_MS = 30_000;

type BuiltList = { root: string; nodes: Buffer; leaves: AllowlistLeafRow[]; unlistedWinners: number };

/**
 * The leaves of the finalized winners: one per wallet on the raffle's chain, with the raffle's
 * per-winner quantity (a wallet two winners share gets both: one leaf per address is what a mint
 * contract can check). Winners with no EVM wallet are counted, not listed.
 */
export function allowlistFromWinners(winners: readonly AllowlistWinnerRow[], quantityPerWinner: number): BuiltList {
  const quantities = new Map<string, bigint>();
  let unlistedWinners = 0;
  for (const { wallet } of winners) {
    if (!wallet || !isAddress(wallet, { strict: false })) {
      unlistedWinners += 1;
      continue;
    }
    const key = wallet.toLowerCase();
    quantities.set(key, (quantities.get(key) ?? 0n) + BigInt(quantityPerWinner));
  }
  if (quantities.size === 0) return { root: EMPTY_ALLOWLIST_ROOT, nodes: Buffer.alloc(0), leaves: [], unlistedWinners };
  // Lowercase addresses in address order (the leaves' stored order); the tree is buildAllowlistTree's,
  // straight to the stored node bytes, without the checksums and hex strings of its dump.
  const listed = [...quantities].sort(([a], [b]) => (a < b ? -1 : 1)).map(([address, quantity]) => ({ address, quantity }));
  const { root, nodes, treeIndexes } = hashAllowlistTree(listed);
  const leaves = listed.map(({ address, quantity }, i) => ({ address, quantity: quantity.toString(), treeIndex: treeIndexes[i]! }));
  return { root, nodes, leaves, unlistedWinners };
}

export const allowlistPublishedOf = (raffle: { id: string; slug: string }, version: AllowlistVersionRow): AllowlistPublished => ({
  raffleId: raffle.id,
  slug: raffle.slug,
  leafEncoding: ['address', 'uint256'],
  ...allowlistVersionView(version),
});

export const allowlistVersionView = (v: AllowlistVersionRow) => ({
  version: v.version,
  root: v.root,
  count: v.leafCount,
  unlistedWinners: v.unlistedWinners,
  reason: v.reason as 'finalized' | 'winners_changed',
  publishedAt: v.publishedAt.toISOString(),
});

/**
 * Builds one claimed raffle's allowlist from its finalized winners, with no lock held while the
 * tree is hashed, then publishes it as the next version with its `raffle.allowlist_published`
 * event in one transaction. A list equal to the latest version (a request that raced the build
 * that already covered it) publishes nothing: versions mark changes.
 */
async function publishClaimed(db: Db, build: AllowlistBuildRow, now: Date): Promise<AllowlistVersionRow | null> {
  const raffle = await findAllowlistRaffle(db, build.raffleId);
  if (!raffle || raffle.status !== 'finalized' || !hasAllowlist(raffle)) {
    await completeAllowlistBuild(db, build);
    return null;
  }
  const winners = await listAllowlistWinners(db, raffle.id);
  const list = allowlistFromWinners(winners, allowlistSettingsOf(raffle.settings).quantity);
  const published = await db.transaction(async (tx) => {
    const [latest] = await listAllowlistVersions(tx, raffle.id);
    if (latest && latest.root === list.root && latest.unlistedWinners === list.unlistedWinners) {
      await completeAllowlistBuild(tx, build);
      return null;
    }
    const version = await insertAllowlistVersion(tx, {
      raffleId: raffle.id,
      root: list.root,
      unlistedWinners: list.unlistedWinners,
      reason: latest ? 'winners_changed' : 'finalized',
      nodes: list.nodes,
      leaves: list.leaves,
      publishedAt: now,
    });
    await appendEvents(tx, [{ type: 'raffle.allowlist_published', audience: { workspaceId: raffle.workspaceId }, data: allowlistPublishedOf(raffle, version), at: now }]);
    await completeAllowlistBuild(tx, build);
    return version;
  });
  // The version is out; fresh statistics only make its pages fast sooner (see analyzeAllowlistLeaves),
  // so a failure here does not fail the build: its pages are right, only slower until the table is analyzed.
  if (published) await analyzeAllowlistLeaves(db).catch(() => undefined);
  return published;
}

/**
 * Publishes every allowlist that is due (queued by queueAllowlistBuild, its wallet deadline
 * passed), one raffle at a time. Any number of processes may run it: a build is claimed for a
 * lease first. A failed build is logged and tried again later, never in a hot loop. `raffleId`
 * publishes that raffle's list only (the demo loader's own raffle, at its story's time).
 */
export async function publishDueAllowlists(
  db: Db,
  options: {
    clock: Clock;
    raffleId?: string;
    onError?: (raffleId: string, error: unknown) => void;
    onPublished?: (raffleId: string, version: AllowlistVersionRow) => void;
  },
): Promise<number> {
  let published = 0;
  for (;;) {
    const now = options.clock.now();
    const build = await claimAllowlistBuild(db, { now, leaseMs: BUILD_LEASE_MS, raffleId: options.raffleId });
    if (!build) return published;
    try {
      const version = await publishClaimed(db, build, now);
      if (version) {
        published += 1;
        options.onPublished?.(build.raffleId, version);
      }
    } catch (error) {
      options.onError?.(build.raffleId, error);
      const code = isDomainError(error) ? error.code : ((error as Error)?.constructor?.name ?? 'Error');
      await failAllowlistBuild(db, { raffleId: build.raffleId, retryAt: new Date(now.getTime() + RETRY_AFTER_MS), error: code }).catch(() => undefined);
    }
  }
}
