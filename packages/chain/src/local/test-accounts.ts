import type { LocalAccount } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';

/**
 * anvil's default mnemonic: public, printed by anvil itself, funding accounts 0-9 with 10,000 ETH
 * on the local chain only. Keys are derived at runtime; none is committed.
 */
const ANVIL_TEST_MNEMONIC = 'test test test test test test test test test test test junk';

/** The first `n` accounts of the test mnemonic: index 0 deploys and mints; 0-9 are funded. */
export function testAccounts(n: number): LocalAccount[] {
  return Array.from({ length: n }, (_, index) => mnemonicToAccount(ANVIL_TEST_MNEMONIC, { addressIndex: index }));
}
