import type { DbOrTx } from '../client.js';
import { newId } from '../ids.js';
import { renderProfile, type WalletRow } from '../render/profile.js';
import { users, userWallets } from '../schema/users.js';

export type NewUser = {
  id?: string;
  handle: string;
  displayName?: string | null;
  avatarUrl?: string | null;
  email?: string | null;
  emailVerifiedAt?: Date | null;
  createdAt?: Date;
  wallets?: WalletRow[];
};

export async function insertUser(tx: DbOrTx, input: NewUser) {
  const now = input.createdAt ?? new Date();
  const row = {
    id: input.id ?? newId('user', now.getTime()),
    handle: input.handle,
    displayName: input.displayName ?? null,
    avatarUrl: input.avatarUrl ?? null,
    email: input.email ?? null,
    emailVerifiedAt: input.emailVerifiedAt ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const wallets = input.wallets ?? [];
  const [user] = await tx
    .insert(users)
    .values({ ...row, profileJson: renderProfile(row, wallets) })
    .returning();
  if (wallets.length > 0) {
    // Demo and imported wallets marked verified were not proven here: 'seed' says where the claim came from.
    const proof = (w: WalletRow) => (w.verified ? { verifiedBy: 'seed', verifiedAt: now } : {});
    await tx.insert(userWallets).values(wallets.map((w) => ({ ...w, ...proof(w), userId: row.id, createdAt: now })));
  }
  return user!;
}
