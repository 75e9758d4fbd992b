import type { Profile } from '@raffle/contracts';
import type { users } from '../schema/users.js';
import { textOrAbsent } from './iso.js';

export type UserRow = Omit<typeof users.$inferSelect, 'profileJson'>;
export type WalletRow = { chain: string; address: string; verified: boolean };

export const toProfile = (u: UserRow, wallets: WalletRow[]): Profile => ({
  id: u.id,
  handle: u.handle,
  displayName: textOrAbsent(u.displayName),
  avatarUrl: textOrAbsent(u.avatarUrl),
  wallets: wallets.map(({ chain, address, verified }) => ({ chain, address, verified })),
  createdAt: u.createdAt.toISOString(),
});

export const renderProfile = (u: UserRow, wallets: WalletRow[]): string => JSON.stringify(toProfile(u, wallets));
