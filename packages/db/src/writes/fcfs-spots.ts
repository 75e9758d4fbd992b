import { rawTransactionOf, type DbOrTx } from '../client.js';

// An FCFS raffle's spots are rows (decision 0029); what a claim, a release and "full" mean is
// written once, in SQL (migration 0014), for every caller: these only call the functions.

/** The raffle's spots 1..spots, made as an FCFS raffle opens; nothing for other mechanics. */
export async function openFcfsSpots(tx: DbOrTx, raffleId: string): Promise<void> {
  await rawTransactionOf(tx)`select open_fcfs_spots(${raffleId})`;
}

export type FcfsClaim = {
  position: number;
  /** The disqualified win whose spot was offered again (disqualified while the raffle was open), if any. */
  replacesWinId: string | null;
  /**
   * Whether a free spot no one is claiming was left after this claim. When none is, this entry
   * may be the last to commit, and tries the close once committed (closeFcfsWhenFull).
   */
  unclaimedLeft: boolean;
};

/**
 * Claims the lowest free spot of an open FCFS raffle for an entry not inserted yet (its win is
 * rendered with the position); the caller holds the raffle row. Null when the raffle is full:
 * every spot is taken by a committed claim. One statement: the claim runs first, in the subquery,
 * then the lookups that follow from it. Settling a pending entry claims here; a new entry claims
 * inside `enter_raffle` (migration 0016), which makes the same lookups.
 */
export async function claimFcfsSpot(tx: DbOrTx, args: { raffleId: string; entryId: string }): Promise<FcfsClaim | null> {
  const [row] = await rawTransactionOf(tx)<{ position: number | null; replaces: string | null; unclaimed_left: boolean }[]>`
    select c.position,
      (select w.id from wins w where w.raffle_id = ${args.raffleId} and w.position = c.position and w.status = 'disqualified') as replaces,
      c.position is not null and fcfs_spot_unclaimed(${args.raffleId}) as unclaimed_left
    from (select claim_fcfs_spot(${args.raffleId}, ${args.entryId}) as position offset 0) c`;
  if (row!.position === null) return null;
  return { position: row!.position, replacesWinId: row!.replaces, unclaimedLeft: row!.unclaimed_left };
}

/** A live win was disqualified: its spot is offered again if the raffle is still open (the SQL decides). */
export async function freeFcfsSpot(tx: DbOrTx, args: { raffleId: string; position: number; entryId: string }): Promise<boolean> {
  const [row] = await rawTransactionOf(tx)<{ freed: boolean }[]>`select free_fcfs_spot(${args.raffleId}, ${args.position}, ${args.entryId}) as freed`;
  return row!.freed;
}

/** Whether every spot is taken: exact under the raffle row's exclusive lock, where no claim is in flight. */
export async function fcfsSpotsAllTaken(tx: DbOrTx, raffleId: string): Promise<boolean> {
  const [row] = await rawTransactionOf(tx)<{ full: boolean }[]>`select fcfs_spots_all_taken(${raffleId}) as full`;
  return row!.full;
}
