import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { DbOrTx } from './client.js';
import { oauthLinkStates } from './schema/connections.js';

// The authorization flows in progress (issue 36): one row per state, consumed once.

export type OAuthLinkStateRow = typeof oauthLinkStates.$inferSelect;

export async function insertOAuthLinkState(
  tx: DbOrTx,
  row: { stateHash: string; userId: string; provider: string; codeVerifier: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await tx.insert(oauthLinkStates).values(row);
}

/**
 * Uses the state up, in one statement (UPDATE … WHERE used_at IS NULL AND expires_at > now
 * RETURNING): of two callbacks racing with one state, exactly one gets the sealed verifier back.
 * Null when the state is not this user's for this provider, is used, or has expired; the caller
 * reads the row to say which.
 */
export async function consumeOAuthLinkState(
  tx: DbOrTx,
  args: { stateHash: string; userId: string; provider: string; now: Date },
): Promise<{ codeVerifier: string } | null> {
  const [row] = await tx
    .update(oauthLinkStates)
    .set({ usedAt: args.now })
    .where(
      and(
        eq(oauthLinkStates.stateHash, args.stateHash),
        eq(oauthLinkStates.userId, args.userId),
        eq(oauthLinkStates.provider, args.provider),
        isNull(oauthLinkStates.usedAt),
        gt(oauthLinkStates.expiresAt, args.now),
      ),
    )
    .returning({ codeVerifier: oauthLinkStates.codeVerifier });
  return row ?? null;
}

/** A state as stored, to tell why it could not be consumed. */
export async function findOAuthLinkState(db: DbOrTx, stateHash: string): Promise<OAuthLinkStateRow | null> {
  const [row] = await db.select().from(oauthLinkStates).where(eq(oauthLinkStates.stateHash, stateHash));
  return row ?? null;
}

/**
 * Gives a consumed state back when the provider could not be asked (it never saw the code), so the
 * same callback may be sent again; only the consumption made at `usedAt` is undone.
 */
export async function releaseOAuthLinkState(db: DbOrTx, args: { stateHash: string; usedAt: Date }): Promise<void> {
  await db
    .update(oauthLinkStates)
    .set({ usedAt: null })
    .where(and(eq(oauthLinkStates.stateHash, args.stateHash), eq(oauthLinkStates.usedAt, args.usedAt)));
}

/** Drops the user's states that expired before `before` (used or not): they can only ever be refused. */
export async function deleteExpiredOAuthLinkStates(tx: DbOrTx, args: { userId: string; before: Date }): Promise<void> {
  await tx.delete(oauthLinkStates).where(and(eq(oauthLinkStates.userId, args.userId), lt(oauthLinkStates.expiresAt, args.before)));
}
