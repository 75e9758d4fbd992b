import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { entries } from '../schema/entries.js';
import { userWallets } from '../schema/users.js';
import { wins } from '../schema/wins.js';

/** The user's entry in the raffle, if any (one per user and raffle). */
export async function findEntryIdOfUser(tx: DbOrTx, args: { raffleId: string; userId: string }): Promise<string | null> {
  const [row] = await tx
    .select({ id: entries.id })
    .from(entries)
    .where(and(eq(entries.raffleId, args.raffleId), eq(entries.userId, args.userId)));
  return row?.id ?? null;
}

export async function countValidEntries(tx: DbOrTx, raffleId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(entries).where(and(eq(entries.raffleId, raffleId), eq(entries.status, 'valid')));
  return row!.n;
}

/** Wins of the raffle in any of `statuses` (the domain names the live ones). */
export async function countWinsInStatus(tx: DbOrTx, args: { raffleId: string; statuses: readonly string[] }): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(wins)
    .where(and(eq(wins.raffleId, args.raffleId), inArray(wins.status, [...args.statuses])));
  return row!.n;
}

/** The wallet an entry on `chain` snapshots: a verified one first, then the oldest. */
export async function findEntrantWallet(tx: DbOrTx, args: { userId: string; chain: string }): Promise<string | null> {
  const [wallet] = await tx
    .select({ address: userWallets.address })
    .from(userWallets)
    .where(and(eq(userWallets.userId, args.userId), eq(userWallets.chain, args.chain)))
    .orderBy(desc(userWallets.verified), userWallets.createdAt)
    .limit(1);
  return wallet?.address ?? null;
}
