import type { ReplicaFreshness } from './replica-freshness.js';
import type { WriteFences } from './write-fences.js';

/** Why a read went where it went: the label of `raffle_reads_total`. */
export type ReadReason =
  /** On the replica: fresh enough, and past the caller's own writes. */
  | 'replica'
  /** No read replica is configured. */
  | 'no_replica'
  /** Down, not replaying, or not sampled yet. */
  | 'replica_unavailable'
  /** Further behind than DATABASE_READ_MAX_STALENESS_MS. */
  | 'too_stale'
  /** The caller wrote (or presented a `Raffle-Read-After` token for) something the replica has not replayed. */
  | 'own_write'
  /** The read failed on the replica as if it were down, and was run again on the primary. */
  | 'replica_failed';

export type ReadPlan = { target: 'replica' | 'primary'; reason: ReadReason; stalenessMs: number };

export type ReadRouter = {
  /** Where a read for `caller` (with the token it presented, if any) goes now, and how stale it may be. */
  plan(caller: string | null, token: bigint | null): ReadPlan;
};

export function createReadRouter(replica: { freshness: ReplicaFreshness; fences: WriteFences; maxStalenessMs: number } | null): ReadRouter {
  const onPrimary = (reason: ReadReason): ReadPlan => ({ target: 'primary', reason, stalenessMs: 0 });
  return {
    plan(caller, token) {
      if (!replica) return onPrimary('no_replica');
      const stalenessMs = replica.freshness.stalenessMs();
      const replayed = replica.freshness.replayed();
      if (stalenessMs === null || replayed === null) return onPrimary('replica_unavailable');
      if (stalenessMs > replica.maxStalenessMs) return onPrimary('too_stale');
      const fence = caller === null ? null : replica.fences.fenceOf(caller);
      if ((fence !== null && fence > replayed) || (token !== null && token > replayed)) return onPrimary('own_write');
      return { target: 'replica', reason: 'replica', stalenessMs };
    },
  };
}
