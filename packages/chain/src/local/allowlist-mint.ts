import { getAddress, type Address, type Hex } from 'viem';
import { artifacts } from './artifacts.js';
import { localPublicClient, localWalletClient } from './chain-clients.js';
import { testAccounts } from './test-accounts.js';

/**
 * Deploys an AllowlistMint (contracts/AllowlistMint.sol), owned by test account 0: winners mint
 * `quantity` tokens once with their StandardMerkleTree proof of (wallet, quantity) against `root`;
 * the owner's `setAllowlistRoot` publishes the next root version after a reroll.
 */
export async function deployAllowlistMint(chain: { rpcUrl: string }, options: { name: string; symbol: string; root: Hex }): Promise<Address> {
  const wallet = localWalletClient(chain, testAccounts(1)[0]!);
  const hash = await wallet.deployContract({
    abi: artifacts.AllowlistMint.abi,
    bytecode: artifacts.AllowlistMint.bytecode,
    args: [options.name, options.symbol, options.root],
  });
  const receipt = await localPublicClient(chain).waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying AllowlistMint ${options.symbol} failed`);
  return getAddress(receipt.contractAddress);
}
