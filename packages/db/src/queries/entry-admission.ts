import { PUBLISHED_RAFFLE_STATUSES } from '@raffle/contracts';
import type postgres from 'postgres';
import type { SqlOrTx } from '../client.js';
import { raffles } from '../schema/raffles.js';
import type { IdentitySnapshot } from '../schema/wins.js';
import type { FcfsClaim } from '../writes/fcfs-spots.js';
import { rowOfTable } from './raw-rows.js';
import { identitySnapshotOf } from './winner-identities.js';
import type { RaffleRef } from './raffle-locks.js';

type RaffleRow = typeof raffles.$inferSelect;

export type AdmissionArgs = {
  ref: RaffleRef;
  userId: string;
  /** The keyed hash of the entrant's IP, when the request had one. */
  ipHash: string | null;
  /** Mechanics whose entries take the raffle row exclusively (`FOR NO KEY UPDATE`) while it is open. */
  exclusiveMechanics: readonly string[];
  /**
   * Mechanics whose entries share the raffle row only while it is open (FCFS, whose spots are rows
   * of their own: decision 0029). Other mechanics share it in any status.
   */
  sharedWhileOpenMechanics: readonly string[];
  /** At most this many earlier entries are listed per shared signal. */
  duplicateLimit: number;
  /**
   * The id the entry will have: an open FCFS raffle without requirements claims its spot for it in
   * this round trip (decision 0029), since nothing can make such an entry pending. The claim is
   * rolled back with the transaction when the entry is refused.
   */
  entryId?: string;
};

/** Everything an entry is judged on, read in one round trip. */
export type Admission = {
  /** The raffle; null when it does not exist or the user may not see it. */
  raffle: RaffleRow | null;
  /**
   * Whether the raffle row is locked for the transaction. Only an exclusive- or shared-while-open-
   * mechanic raffle that was not open (or, FCFS, was full) is read unlocked; one read open and not
   * full that way opened after its lock was tried, and must not be entered without it.
   */
  locked: boolean;
  existingEntryId: string | null;
  /** The wallet the entry snapshots on the raffle's chain (a verified one first, then the oldest). */
  walletSnapshot: string | null;
  /**
   * Spots held: valid entries of a collection raffle; for an FCFS raffle `spots` once every spot is
   * taken by a committed claim and 0 before (a claim says which spot is next); 0 otherwise.
   */
  spotsTaken: number;
  /** Earlier entries of the raffle sharing the wallet or the IP hash, in id order. */
  walletReuse: string[];
  ipReuse: string[];
  /** For an FCFS raffle, the entrant as their win would snapshot them; null otherwise. */
  winnerIdentity: IdentitySnapshot | null;
  /**
   * The spot claimed for `entryId`: null when the raffle was full, undefined when no claim was
   * tried here (not an open FCFS raffle without requirements, already entered, or no `entryId`);
   * the caller then claims once it knows the entry takes one (claimFcfsSpot).
   */
  fcfsClaim: FcfsClaim | null | undefined;
};

const publishedStatuses = [...PUBLISHED_RAFFLE_STATUSES];

type WinnerColumn = { handle: string; displayName: string | null; wallets: { chain: string; address: string }[] } | string | null;

/** json_build_object arrives as text or parsed, depending on the column type the driver sees. */
function winnerOf(column: WinnerColumn): IdentitySnapshot | null {
  if (column === null) return null;
  const winner = typeof column === 'string' ? (JSON.parse(column) as Exclude<WinnerColumn, string | null>) : column;
  return identitySnapshotOf(winner, winner.wallets);
}

/**
 * Reads and locks everything an entry is judged on in one round trip: the statements go out as one
 * pipeline on the transaction's connection and run in the order sent, each with its own snapshot
 * (READ COMMITTED). So the spot count runs after the raffle lock is granted, and the duplicate
 * lookup after the signal locks, exactly as if each had waited for the one before. Statements
 * that follow a refusal (no such raffle, already entered) still run; they only read, or take locks
 * the rollback releases.
 *
 * The lock's mode depends on the mechanic, which is fixed once a raffle is published (the only
 * raffles an entrant can see): one statement per mode, each matching only its mechanics, so
 * at most one of them locks the row; an exclusive- or shared-while-open-mechanic raffle that is
 * not open is read without a lock (it refuses the entry anyway).
 */
export async function readEntrantAdmission(tx: SqlOrTx, args: AdmissionArgs): Promise<Admission> {
  const { userId, ipHash } = args;
  const exclusive = [...args.exclusiveMechanics];
  const sharedWhileOpen = [...args.sharedWhileOpenMechanics];
  const lockedWhileOpen = [...exclusive, ...sharedWhileOpen];
  // A slug names one raffle only among the published (drafts of other workspaces may share it).
  const match = 'slug' in args.ref ? tx`r.slug = ${args.ref.slug} and r.published_at is not null` : tx`r.id = ${args.ref.raffleId}`;
  const visible = tx`${match} and r.status = any(${publishedStatuses})
    and (r.visibility in ('public', 'unlisted')
      or exists (select 1 from workspace_members m where m.workspace_id = r.workspace_id and m.user_id = ${userId}))`;
  const wallet = tx`(select w.address from user_wallets w where w.user_id = ${userId} and w.chain = r.chain
    order by w.verified desc, w.created_at limit 1)`;

  // `.execute()` sends each statement now, in this order, without waiting for the one before.
  const pipeline = [
    // Only an open FCFS or collection raffle is locked: once one fills (and closes), the rest of the
    // rush is refused side by side instead of queueing on the row behind whoever holds it. A close
    // that commits while this waits makes the row no longer match; the third statement reads it unlocked.
    // An FCFS raffle whose spots are all taken is not locked either: its refusals would otherwise
    // keep the row share-locked without a gap, and the close (which waits for every sharer) with it.
    tx`select r.* from raffles r where ${visible} and r.mechanic <> all(${exclusive})
      and (r.mechanic <> all(${sharedWhileOpen}) or (r.status = 'open' and not fcfs_spots_all_taken(r.id))) for share of r`.execute(),
    tx`select r.* from raffles r where ${visible} and r.mechanic = any(${exclusive}) and r.status = 'open' for no key update of r`.execute(),
    tx`select r.* from raffles r where ${visible} and r.mechanic = any(${lockedWhileOpen})`.execute(),
    // Entries sharing a signal queue on its advisory lock, wallet before IP (one order, no
    // deadlock). The sorted subquery is a fence: the locks are taken one row at a time, in order.
    tx`select pg_advisory_xact_lock(l.k) from (
        select v.k from raffles r,
          lateral (values (1, hashtextextended(r.id || ':w:' || ${wallet}, 0)), (2, hashtextextended(r.id || ':i:' || ${ipHash}::text, 0))) v(n, k)
        where ${match} and v.k is not null order by v.n offset 0) l`.execute(),
    // After every lock: the standing and the duplicates see all that committed before them.
    tx`select
        (select e.id from entries e where e.raffle_id = r.id and e.user_id = ${userId}) as existing_entry_id,
        ${wallet} as wallet_snapshot,
        case r.mechanic
          when 'fcfs' then case when fcfs_spots_all_taken(r.id) then r.spots else 0 end
          when 'collection' then (select count(*) from entries e where e.raffle_id = r.id and e.status = 'valid')
          else 0 end::int as spots_taken,
        -- An FCFS entry wins at once: its win snapshots the winner (identitySnapshotOf).
        case when r.mechanic = 'fcfs' then (select json_build_object('handle', u.handle, 'displayName', u.display_name,
          'wallets', coalesce((select json_agg(json_build_object('chain', w.chain, 'address', w.address) order by w.chain, w.address)
                               from user_wallets w where w.user_id = u.id), '[]'::json))
          from users u where u.id = ${userId}) end as winner,
        array(select e.id from entries e where e.raffle_id = r.id and e.wallet_snapshot = ${wallet} order by e.id limit ${args.duplicateLimit}) as wallet_reuse,
        array(select e.id from entries e where e.raffle_id = r.id and e.ip_hash = ${ipHash}::text order by e.id limit ${args.duplicateLimit}) as ip_reuse,
        c.position as claimed_position,
        case when c.position is not null then
          (select w.id from wins w where w.raffle_id = r.id and w.position = c.position and w.status = 'disqualified') end as claim_replaces,
        case when c.position is not null then fcfs_spot_unclaimed(r.id) else false end as claim_unclaimed_left,
        c.tried as claim_tried
      from raffles r
      -- Under the raffle's lock, the claim of claimFcfsSpot, for an entry that nothing but the
      -- checks on this row can refuse (they roll it back). Its conditions only save a wasted claim.
      left join lateral (select true as tried, claim_fcfs_spot(r.id, ${args.entryId ?? null}::text) as position
        where ${args.entryId ?? null}::text is not null and ${visible} and r.mechanic = 'fcfs' and r.status = 'open'
          and r.requirements = '[]'::jsonb and not fcfs_spots_all_taken(r.id)
          and not exists (select 1 from entries e where e.raffle_id = r.id and e.user_id = ${userId})
        offset 0) c on true
      where ${match}`.execute(),
  ] as const;
  const [shared, exclusiveRows, unlockedRows, , standing] = (await Promise.all(pipeline)) as postgres.Row[][];
  const raw = shared![0] ?? exclusiveRows![0] ?? unlockedRows![0];
  if (!raw) return { raffle: null, locked: false, existingEntryId: null, walletSnapshot: null, spotsTaken: 0, walletReuse: [], ipReuse: [], winnerIdentity: null, fcfsClaim: undefined };
  const row = standing![0]!;
  return {
    raffle: rowOfTable(raffles, raw),
    locked: raw !== unlockedRows![0],
    existingEntryId: standing![0]!.existing_entry_id ?? null,
    walletSnapshot: standing![0]!.wallet_snapshot ?? null,
    spotsTaken: standing![0]!.spots_taken,
    walletReuse: standing![0]!.wallet_reuse,
    ipReuse: standing![0]!.ip_reuse,
    winnerIdentity: winnerOf(standing![0]!.winner),
    fcfsClaim: !row.claim_tried
      ? undefined
      : row.claimed_position === null ? null : { position: row.claimed_position, replacesWinId: row.claim_replaces, unclaimedLeft: row.claim_unclaimed_left },
  };
}
