import type { UserWalletRow } from '@raffle/db';
import type { LinkedWallet } from '@raffle/contracts';

/** A wallet as its owner sees it in the wallet routes: the profile's three fields and the proof. */
export const toLinkedWallet = (row: UserWalletRow): LinkedWallet => ({
  chain: row.chain,
  chainId: row.chainId,
  address: row.address,
  verified: row.verified,
  verifiedAt: row.verifiedAt ? row.verifiedAt.toISOString() : null,
  verifiedBy: (row.verifiedBy as LinkedWallet['verifiedBy']) ?? null,
});
