import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';

export type EntrantWallet = { chain: string; address: string };

/**
 * The verified wallets of many users on the given chains, in one query, by user id (users without
 * one are absent): what on-chain requirements sum an entrant's holdings over, at entry, when a
 * pending entry is settled, and at the draw. `linkedBy` leaves out wallets linked after that moment
 * (the draw passes the close), so a wallet linked once entries were closed cannot change who was
 * eligible at the close block.
 */
export async function listVerifiedWallets(
  tx: DbOrTx,
  args: { userIds: readonly string[]; chains: readonly string[]; linkedBy?: Date },
): Promise<Map<string, EntrantWallet[]>> {
  const byUser = new Map<string, EntrantWallet[]>();
  if (args.userIds.length === 0 || args.chains.length === 0) return byUser;
  const linkedBy = args.linkedBy ? sql`and w.created_at <= ${args.linkedBy.toISOString()}::timestamptz` : sql``;
  const rows = await tx.execute<{ userId: string; chain: string; address: string }>(sql`
    select w.user_id as "userId", w.chain, w.address
    from user_wallets w
    where w.user_id in (select jsonb_array_elements_text(${JSON.stringify(args.userIds)}::jsonb))
      and w.chain in (select jsonb_array_elements_text(${JSON.stringify(args.chains)}::jsonb))
      and w.verified ${linkedBy}
    order by w.user_id, w.chain, w.address`);
  for (const row of rows) {
    const list = byUser.get(row.userId) ?? [];
    list.push({ chain: row.chain, address: row.address });
    byUser.set(row.userId, list);
  }
  return byUser;
}
