import { findLiveWinOfUser, isVerifiedWalletOf, setWinAllowlistWallet, type AllowlistRaffleRow, type Db } from '@raffle/db';
import { getAddress, isAddress } from 'viem';
import { DomainError } from '../errors.js';
import { allowlistSettingsOf, hasAllowlist } from './allowlist-settings.js';

/**
 * A winner names the wallet their allowlist leaf is for, before the raffle's wallet deadline: one
 * of their own verified wallets (linked by signature) on the raffle's chain, so nobody can put
 * another's wallet, or one they cannot sign for, on the list. The allowlist is built after the
 * deadline, so no published version changes.
 */
export async function nameAllowlistWallet(
  db: Db,
  args: { raffle: AllowlistRaffleRow; userId: string; address: string; now: Date },
): Promise<{ raffleId: string; address: string; walletDeadline: string }> {
  const { raffle } = args;
  if (!hasAllowlist(raffle)) throw new DomainError('WALLET_NAMING_CLOSED', `${raffle.slug} is not an allowlist raffle (allocation ${raffle.allocationType})`);
  const { walletDeadline } = allowlistSettingsOf(raffle.settings);
  if (!walletDeadline) throw new DomainError('WALLET_NAMING_CLOSED', `${raffle.slug} sets no wallet deadline: its allowlist uses the wallet each entry snapshotted`);
  if (walletDeadline <= args.now) throw new DomainError('WALLET_NAMING_CLOSED', `the wallet deadline of ${raffle.slug} passed at ${walletDeadline.toISOString()}`);
  if (!isAddress(args.address, { strict: false })) throw new DomainError('VALIDATION_FAILED', `address ${args.address} is not an EVM address`);
  return db.transaction(async (tx) => {
    const win = await findLiveWinOfUser(tx, { raffleId: raffle.id, userId: args.userId });
    if (!win) throw new DomainError('WIN_NOT_FOUND', `you hold no live win of ${raffle.slug}`);
    if (!(await isVerifiedWalletOf(tx, { userId: args.userId, address: args.address, chain: raffle.chain }))) {
      throw new DomainError('VALIDATION_FAILED', `${args.address} is not one of your verified wallets${raffle.chain ? ` on ${raffle.chain}` : ''}: link it by signature first`);
    }
    await setWinAllowlistWallet(tx, { winId: win.winId, wallet: getAddress(args.address) });
    return { raffleId: raffle.id, address: getAddress(args.address), walletDeadline: walletDeadline.toISOString() };
  });
}
