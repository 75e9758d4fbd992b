import { asc, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { users, userWallets } from '../schema/users.js';
import type { IdentitySnapshot } from '../schema/wins.js';

/** Who each user is now, as a win snapshots them (handle, display name, wallets); by user id. */
export async function loadIdentitySnapshots(tx: DbOrTx, userIds: readonly string[]): Promise<Map<string, IdentitySnapshot>> {
  const ids = [...userIds];
  // Two independent reads: in a transaction they leave as one pipeline.
  const [people, wallets] = await Promise.all([
    tx.select({ id: users.id, handle: users.handle, displayName: users.displayName }).from(users).where(inArray(users.id, ids)),
    tx
      .select({ userId: userWallets.userId, chain: userWallets.chain, address: userWallets.address })
      .from(userWallets)
      .where(inArray(userWallets.userId, ids))
      .orderBy(asc(userWallets.chain), asc(userWallets.address)),
  ]);
  const identities = new Map<string, IdentitySnapshot>();
  for (const p of people) identities.set(p.id, identitySnapshotOf(p, wallets.filter((w) => w.userId === p.id)));
  return identities;
}

/** A win's snapshot of its winner: wallets in (chain, address) order, wherever they were read. */
export function identitySnapshotOf(
  person: { handle: string; displayName: string | null },
  wallets: readonly { chain: string; address: string }[],
): IdentitySnapshot {
  return {
    handle: person.handle,
    ...(person.displayName ? { displayName: person.displayName } : {}),
    wallets: wallets.map(({ chain, address }) => ({ chain, address })),
  };
}
