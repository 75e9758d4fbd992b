import type { DrawCommitmentBody } from '@raffle/contracts';
import type { Sql } from '../client.js';

type CommitmentRow = {
  slug: string;
  drawCommitment: string | null;
  drawAlgorithm: string | null;
  publishedAt: string | Date;
  closedAt: string | Date | null;
  beaconRound: string | number | null;
  beaconChainHash: string | null;
};

const iso = (value: string | Date) => new Date(value).toISOString();

/**
 * What a published public or unlisted raffle has said about its draw (issue 34): the commitment and
 * the algorithm it is for, from publish; the beacon round, from the close. Null for a raffle a
 * stranger may not see (findPubliclyVisibleRaffle's rule), so the answer says nothing about it.
 */
export async function findPublicDrawCommitment(sql: Sql, slug: string): Promise<DrawCommitmentBody | null> {
  const [row] = await sql<CommitmentRow[]>`
    select slug, draw_commitment as "drawCommitment", draw_algorithm as "drawAlgorithm", published_at as "publishedAt",
           closed_at as "closedAt", beacon_round as "beaconRound", beacon_chain_hash as "beaconChainHash"
    from raffles
    where slug = ${slug} and published_at is not null
      and status in ('scheduled', 'open', 'closed', 'drawn', 'finalized')
      and visibility in ('public', 'unlisted')`;
  if (!row || row.drawCommitment === null) return null;
  return {
    slug: row.slug,
    drawCommitment: row.drawCommitment,
    ...(row.drawAlgorithm === null ? {} : { drawAlgorithm: row.drawAlgorithm as DrawCommitmentBody['drawAlgorithm'] }),
    publishedAt: iso(row.publishedAt),
    ...(row.closedAt === null ? {} : { closedAt: iso(row.closedAt) }),
    ...(row.beaconRound === null ? {} : { beaconRound: Number(row.beaconRound) }),
    ...(row.beaconChainHash === null || row.beaconRound === null ? {} : { beaconChainHash: row.beaconChainHash }),
  };
}
