import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { DbOrTx } from './client.js';
import { userConnections } from './schema/connections.js';

// The Discord and X accounts users linked (issue 36). Tokens arrive and leave sealed: nothing
// here can read them.

export type UserConnectionRow = typeof userConnections.$inferSelect;

/** What a completed flow stores: the account and its sealed tokens. */
export type LinkedConnection = {
  userId: string;
  provider: string;
  accountId: string;
  accountName: string;
  accessToken: string;
  refreshToken: string | null;
  accessTokenExpiresAt: Date;
  scopes: string[];
  linkedAt: Date;
};

type ConnectionKey = { userId: string; provider: string };

const keyIs = (key: ConnectionKey) => and(eq(userConnections.userId, key.userId), eq(userConnections.provider, key.provider));

export async function findUserConnection(db: DbOrTx, key: ConnectionKey): Promise<UserConnectionRow | null> {
  const [row] = await db.select().from(userConnections).where(keyIs(key));
  return row ?? null;
}

/** The user's connections, by provider (there is at most one per provider). */
export async function listUserConnections(db: DbOrTx, userId: string): Promise<UserConnectionRow[]> {
  return db.select().from(userConnections).where(eq(userConnections.userId, userId)).orderBy(asc(userConnections.provider));
}

/**
 * Stores a link, replacing the user's previous one of the provider (its tokens included, its
 * refresh claim ended), and returns the row it replaced, read under the same row lock, so the
 * caller revokes exactly the tokens that were replaced.
 */
export async function replaceUserConnection(tx: DbOrTx, link: LinkedConnection): Promise<{ row: UserConnectionRow; previous: UserConnectionRow | null }> {
  const [previous] = await tx.select().from(userConnections).where(keyIs(link)).for('update');
  const fresh = {
    accountId: link.accountId,
    accountName: link.accountName,
    accessToken: link.accessToken,
    refreshToken: link.refreshToken,
    accessTokenExpiresAt: link.accessTokenExpiresAt,
    scopes: link.scopes,
    status: 'active',
    revokedReason: null,
    refreshClaimedUntil: null,
    linkedAt: link.linkedAt,
    updatedAt: link.linkedAt,
  };
  const [row] = await tx
    .insert(userConnections)
    .values({ userId: link.userId, provider: link.provider, ...fresh })
    .onConflictDoUpdate({ target: [userConnections.userId, userConnections.provider], set: fresh })
    .returning();
  return { row: row!, previous: previous ?? null };
}

/** Removes the user's link of the provider; the removed row (its sealed tokens, to revoke), or null when there was none. */
export async function deleteUserConnection(tx: DbOrTx, key: ConnectionKey): Promise<UserConnectionRow | null> {
  const [row] = await tx.delete(userConnections).where(keyIs(key)).returning();
  return row ?? null;
}

/**
 * Claims the refresh of an active link whose access token expires by `expiringBy`, until
 * `claimUntil`, unless another caller holds an unexpired claim: one statement, so of any number
 * of callers (on any instance) exactly one gets the row and refreshes; the others wait for it.
 */
export async function claimConnectionRefresh(
  db: DbOrTx,
  args: ConnectionKey & { now: Date; expiringBy: Date; claimUntil: Date },
): Promise<UserConnectionRow | null> {
  const [row] = await db
    .update(userConnections)
    .set({ refreshClaimedUntil: args.claimUntil })
    .where(
      and(
        keyIs(args),
        eq(userConnections.status, 'active'),
        lte(userConnections.accessTokenExpiresAt, args.expiringBy),
        or(isNull(userConnections.refreshClaimedUntil), lte(userConnections.refreshClaimedUntil, args.now)),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Saves the tokens a refresh gave and ends the claim, only if the link still holds the access
 * token the refresh started from (sealed values are unique): a link replaced or removed meanwhile
 * is left alone, and false says the new tokens belong to nobody.
 */
export async function saveRefreshedTokens(
  db: DbOrTx,
  args: ConnectionKey & { replacedAccessToken: string; accessToken: string; refreshToken: string | null; accessTokenExpiresAt: Date; scopes: string[]; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(userConnections)
    .set({
      accessToken: args.accessToken,
      refreshToken: args.refreshToken,
      accessTokenExpiresAt: args.accessTokenExpiresAt,
      scopes: args.scopes,
      refreshClaimedUntil: null,
      updatedAt: args.now,
    })
    .where(and(keyIs(args), eq(userConnections.accessToken, args.replacedAccessToken)))
    .returning({ userId: userConnections.userId });
  return rows.length > 0;
}

/** Ends a claim without new tokens (the provider could not be asked): the next caller tries again. */
export async function releaseConnectionRefresh(db: DbOrTx, args: ConnectionKey & { claimUntil: Date }): Promise<void> {
  await db
    .update(userConnections)
    .set({ refreshClaimedUntil: null })
    .where(and(keyIs(args), eq(userConnections.refreshClaimedUntil, args.claimUntil)));
}

/**
 * Marks the link revoked (the provider refused its refresh token, or its token and there is no
 * refresh): it stays listed, says why, and counts as no link until linked again. Only the link
 * that still holds `accessToken`: a newer link is not the one that was refused.
 */
export async function markUserConnectionRevoked(db: DbOrTx, args: ConnectionKey & { accessToken: string; reason: string; now: Date }): Promise<void> {
  await db
    .update(userConnections)
    .set({ status: 'revoked', revokedReason: args.reason, refreshClaimedUntil: null, updatedAt: args.now })
    .where(and(keyIs(args), eq(userConnections.accessToken, args.accessToken)));
}

/** The provider account each of these users linked (active or not), for duplicate flags: several users may name one account. */
export async function connectedAccountIds(db: DbOrTx, args: { userIds: readonly string[]; provider: string }): Promise<Array<{ userId: string; accountId: string }>> {
  if (args.userIds.length === 0) return [];
  return db
    .select({ userId: userConnections.userId, accountId: userConnections.accountId })
    .from(userConnections)
    .where(and(eq(userConnections.provider, args.provider), inArray(userConnections.userId, [...args.userIds])));
}

/** Every user who linked this provider account: more than one is a shared account. */
export async function usersLinkedToAccount(db: DbOrTx, args: { provider: string; accountId: string }): Promise<string[]> {
  const rows = await db
    .select({ userId: userConnections.userId })
    .from(userConnections)
    .where(and(eq(userConnections.provider, args.provider), eq(userConnections.accountId, args.accountId)))
    .orderBy(asc(userConnections.userId));
  return rows.map((row) => row.userId);
}
