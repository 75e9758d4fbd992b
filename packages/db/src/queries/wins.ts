import type { Sql } from '../client.js';
import { keysetReadSize, type RenderedRow } from './keyset.js';

/** The key owner's wins in every status, newest first. */
export async function pageUserWins(
  sql: Sql,
  args: { userId: string; before: string | null; limit: number },
): Promise<RenderedRow[]> {
  return sql<RenderedRow[]>`
    select id, win_json as json from wins
    where user_id = ${args.userId} ${args.before ? sql`and id < ${args.before}` : sql``}
    order by id desc limit ${keysetReadSize(args.limit)}`;
}

/** Finalized winners by position: the spec's bare-array winners list. */
export async function listFinalizedWinnerJson(sql: Sql, raffleId: string): Promise<string[]> {
  const rows = await sql<{ json: string }[]>`
    select winner_json as json from wins
    where raffle_id = ${raffleId} and status = 'finalized'
    order by position, id`;
  return rows.map((r) => r.json);
}

/** A finalized winner's stored JSON with its place in the winners' order. */
export type FinalizedWinnerRow = { position: number; id: string; json: string };

/**
 * The same winners, `limit` at a time after the key `after` (position, then id): the winners
 * export reads a raffle's every winner in batches rather than in one array.
 */
export async function pageFinalizedWinnerJson(
  sql: Sql,
  args: { raffleId: string; after: readonly [position: number, id: string] | null; limit: number },
): Promise<FinalizedWinnerRow[]> {
  const { after } = args;
  return sql<FinalizedWinnerRow[]>`
    select position, id, winner_json as json from wins
    where raffle_id = ${args.raffleId} and status = 'finalized'
      ${after ? sql`and (position, id) > (${after[0]}, ${after[1]})` : sql``}
    order by position, id limit ${args.limit}`;
}
