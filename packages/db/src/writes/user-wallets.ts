import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { renderProfile } from '../render/profile.js';
import { users, userWallets } from '../schema/users.js';
import type { UserWalletRow } from '../queries/user-wallets.js';

export type VerifiedWallet = {
  userId: string;
  chain: string;
  chainId: number;
  address: string;
  verifiedBy: 'siwe' | 'erc1271';
  verifiedAt: Date;
};

/**
 * Stores a wallet the user has just proven: one row per (user, chain, address), so proving it again
 * refreshes when and how (a wallet that was an EOA and is now a contract says so).
 */
export async function upsertVerifiedWallet(tx: DbOrTx, wallet: VerifiedWallet): Promise<UserWalletRow> {
  const proof = { verified: true, chainId: wallet.chainId, verifiedAt: wallet.verifiedAt, verifiedBy: wallet.verifiedBy };
  const [row] = await tx
    .insert(userWallets)
    .values({ userId: wallet.userId, chain: wallet.chain, address: wallet.address, createdAt: wallet.verifiedAt, ...proof })
    .onConflictDoUpdate({ target: [userWallets.userId, userWallets.chain, userWallets.address], set: proof })
    .returning();
  return row!;
}

/** Removes one of the user's wallets; the removed row, or null when the user has no such wallet. */
export async function deleteUserWallet(tx: DbOrTx, args: { userId: string; chain: string; address: string }): Promise<UserWalletRow | null> {
  const [row] = await tx
    .delete(userWallets)
    .where(and(eq(userWallets.userId, args.userId), eq(userWallets.chain, args.chain), eq(userWallets.address, args.address)))
    .returning();
  return row ?? null;
}

/**
 * Re-renders the user's stored profile (`/api/v1/me`, `/api/dashboard/me`) from the rows as they
 * are now; called in the transaction that changed a wallet. Wallets in (chain, address) order.
 */
export async function rerenderProfile(tx: DbOrTx, userId: string): Promise<void> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user) return;
  const wallets = await tx.select().from(userWallets).where(eq(userWallets.userId, userId)).orderBy(userWallets.chain, userWallets.address);
  await tx
    .update(users)
    .set({ profileJson: renderProfile(user, wallets), updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}
