import type { Sql } from '../client.js';

/** What a raffle's draw proof is built from: the raffle's draw fields and its snapshot, if any. */
export type DrawProofSource = {
  mechanic: string;
  status: string;
  /** Frozen once the raffle opens, so the proof's spots are the ones the draw filled. */
  spots: number;
  seed: string | null;
  drawCommitment: string | null;
  entriesDigest: string | null;
  /** Null until the draw's snapshot exists. */
  algorithm: string | null;
  /** The snapshot's canonical lines (`id:userId:weight\n`, in id order). */
  entryLines: string | null;
};

export type DrawWinnerPosition = { entryId: string; position: number };

/** The raffle's draw fields and snapshot, or null when there is no such raffle. */
export async function findDrawProofSource(sql: Sql, raffleId: string): Promise<DrawProofSource | null> {
  const [row] = await sql<DrawProofSource[]>`
    select r.mechanic, r.status, r.spots, r.draw_seed as seed, r.draw_commitment as "drawCommitment", r.entries_digest as "entriesDigest",
           s.algorithm, s.entry_lines as "entryLines"
    from raffles r left join raffle_draw_snapshots s on s.raffle_id = r.id
    where r.id = ${raffleId}`;
  return row ?? null;
}

/** The draw's own selections at their original positions, whatever happened to the wins since. */
export async function listDrawWinnerPositions(sql: Sql, raffleId: string): Promise<DrawWinnerPosition[]> {
  return sql<DrawWinnerPosition[]>`
    select entry_id as "entryId", position from wins
    where raffle_id = ${raffleId} and source = 'draw'
    order by position, id`;
}
