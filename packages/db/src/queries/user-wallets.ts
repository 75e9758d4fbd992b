import { and, asc, eq, gt, or } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { userWallets } from '../schema/users.js';
import { keysetReadSize } from './keyset.js';

export type UserWalletRow = typeof userWallets.$inferSelect;

/** A wallet's place in its owner's list: chain, then address (the rest of the primary key). */
export type WalletKey = [chain: string, address: string];

/** A page of the user's wallets, in (chain, address) order, after the key. */
export async function pageUserWallets(db: DbOrTx, args: { userId: string; after: WalletKey | null; limit: number }): Promise<UserWalletRow[]> {
  const after = args.after;
  return db
    .select()
    .from(userWallets)
    .where(
      and(
        eq(userWallets.userId, args.userId),
        after === null ? undefined : or(gt(userWallets.chain, after[0]), and(eq(userWallets.chain, after[0]), gt(userWallets.address, after[1]))),
      ),
    )
    .orderBy(asc(userWallets.chain), asc(userWallets.address))
    .limit(keysetReadSize(args.limit));
}
