import { and, eq, isNull, lt } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { walletLinkNonces } from '../schema/users.js';

export async function insertWalletLinkNonce(tx: DbOrTx, row: { nonce: string; userId: string; issuedAt: Date; expiresAt: Date }): Promise<void> {
  await tx.insert(walletLinkNonces).values(row);
}

/**
 * Marks the user's nonce used, in one statement (UPDATE … WHERE used_at IS NULL RETURNING): of two
 * links racing with one nonce, exactly one gets the row back. Null when the nonce was never issued
 * to this user or is used already; an expired nonce is consumed too (it can never be used anyway)
 * and its expiry returned for the caller to refuse.
 */
export async function consumeWalletLinkNonce(tx: DbOrTx, args: { nonce: string; userId: string; now: Date }): Promise<{ issuedAt: Date; expiresAt: Date } | null> {
  const [row] = await tx
    .update(walletLinkNonces)
    .set({ usedAt: args.now })
    .where(and(eq(walletLinkNonces.nonce, args.nonce), eq(walletLinkNonces.userId, args.userId), isNull(walletLinkNonces.usedAt)))
    .returning({ issuedAt: walletLinkNonces.issuedAt, expiresAt: walletLinkNonces.expiresAt });
  return row ?? null;
}

/** Drops the user's nonces that expired before `before` (used or not): they can only ever be refused. */
export async function deleteExpiredWalletLinkNonces(tx: DbOrTx, args: { userId: string; before: Date }): Promise<void> {
  await tx.delete(walletLinkNonces).where(and(eq(walletLinkNonces.userId, args.userId), lt(walletLinkNonces.expiresAt, args.before)));
}
