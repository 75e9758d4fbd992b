import type { Sql } from '../client.js';
import { readSnapshotChunkLines } from '../draw-snapshots/snapshot-chunks.js';
import type { DrawBeaconRecord, EligibilityBlockRecord } from '../schema/draws.js';

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
  /** When entries closed: the beacon round is fixed by it. */
  closedAt: Date | null;
  /** The beacon round the draw mixed in (`es-hmac-sha256-drand-v1`), or null. */
  beacon: DrawBeaconRecord | null;
  /** The blocks the draw re-read on-chain requirements at (decision 0028), or null when it read none. */
  eligibilityBlocks: EligibilityBlockRecord[] | null;
  /** The snapshot's canonical lines (`id:userId:weight\n`, in id order); null before the draw. */
  entryLines: string | null;
};

export type DrawWinnerPosition = { entryId: string; position: number };

/** The raffle's draw fields and snapshot, or null when there is no such raffle. */
export async function findDrawProofSource(sql: Sql, raffleId: string): Promise<DrawProofSource | null> {
  const [row] = await sql<(Omit<DrawProofSource, 'closedAt' | 'beacon' | 'eligibilityBlocks'> & {
      hasSnapshot: boolean;
      closedAt: string | Date | null;
      beacon: string | DrawBeaconRecord | null;
      eligibilityBlocks: string | EligibilityBlockRecord[] | null;
    })[]>`
    select r.mechanic, r.status, r.spots, r.draw_seed as seed, r.draw_commitment as "drawCommitment", r.entries_digest as "entriesDigest",
           r.closed_at as "closedAt", s.algorithm, s.beacon, s.eligibility_blocks as "eligibilityBlocks", s.entry_lines as "entryLines",
           s.raffle_id is not null as "hasSnapshot"
    from raffles r left join raffle_draw_snapshots s on s.raffle_id = r.id
    where r.id = ${raffleId}`;
  if (!row) return null;
  // The shared client leaves timestamps and JSON as Postgres sent them (see client.ts).
  const { closedAt, beacon, eligibilityBlocks, hasSnapshot, ...fields } = row;
  // A snapshot since migration 0017 keeps its lines in chunks (decision 0030); older ones in entry_lines.
  const entryLines = hasSnapshot && fields.entryLines === null ? await readSnapshotChunkLines(sql, raffleId) : fields.entryLines;
  return {
    ...fields,
    entryLines,
    closedAt: closedAt === null ? null : new Date(closedAt),
    beacon: typeof beacon === 'string' ? (JSON.parse(beacon) as DrawBeaconRecord) : beacon,
    eligibilityBlocks: typeof eligibilityBlocks === 'string' ? (JSON.parse(eligibilityBlocks) as EligibilityBlockRecord[]) : eligibilityBlocks,
  };
}

/** The draw's own selections at their original positions, whatever happened to the wins since. */
export async function listDrawWinnerPositions(sql: Sql, raffleId: string): Promise<DrawWinnerPosition[]> {
  return sql<DrawWinnerPosition[]>`
    select entry_id as "entryId", position from wins
    where raffle_id = ${raffleId} and source = 'draw'
    order by position, id`;
}

/** A win disqualified after the draw, as the proof lists it (issue 34). */
export type DisqualifiedWinner = { entryId: string; position: number; disqualifiedAt: string; replacedAt?: string };
/** A win a reroll selected, as the proof lists it. */
export type RerolledWinner = { entryId: string; position: number; selectedAt: string };
export type WinnerChanges = { disqualified: DisqualifiedWinner[]; rerolled: RerolledWinner[] };

const isoOf = (value: string | Date) => new Date(value).toISOString();

/**
 * What happened to the draw's winners since: every disqualified win (the draw's or a reroll's) and
 * every win a reroll selected, each in the order it happened, so an owner cannot walk down the
 * revealed order unseen.
 */
export async function listWinnerChanges(sql: Sql, raffleId: string): Promise<WinnerChanges> {
  const rows = await sql<{ entryId: string; position: number; source: string; selectedAt: string | Date; disqualifiedAt: string | Date | null; replacedAt: string | Date | null }[]>`
    select entry_id as "entryId", position, source, selected_at as "selectedAt", disqualified_at as "disqualifiedAt", replaced_at as "replacedAt"
    from wins
    where raffle_id = ${raffleId} and (source = 'reroll' or disqualified_at is not null)
    order by id`;
  const disqualified = rows
    .filter((r) => r.disqualifiedAt !== null)
    .map((r) => ({ entryId: r.entryId, position: r.position, disqualifiedAt: isoOf(r.disqualifiedAt!), ...(r.replacedAt === null ? {} : { replacedAt: isoOf(r.replacedAt) }) }))
    .sort((a, b) => a.disqualifiedAt.localeCompare(b.disqualifiedAt));
  const rerolled = rows
    .filter((r) => r.source === 'reroll')
    .map((r) => ({ entryId: r.entryId, position: r.position, selectedAt: isoOf(r.selectedAt) }))
    .sort((a, b) => a.selectedAt.localeCompare(b.selectedAt));
  return { disqualified, rerolled };
}
