import { getAddress, type Address } from 'viem';
import { artifacts } from './artifacts.js';
import { localPublicClient, localWalletClient } from './chain-clients.js';
import { testAccounts } from './test-accounts.js';

/** How a HostileToken's `balanceOf` misbehaves (the order of the contract's `Mode` enum). */
export const HOSTILE_MODES = ['huge-return', 'gas-burner', 'reverts', 'garbage'] as const;
export type HostileMode = (typeof HOSTILE_MODES)[number];

/** Deploys a HostileToken (contracts/HostileToken.sol): a gate a tenant could name to poison shared reads. */
export async function deployHostileToken(chain: { rpcUrl: string }, mode: HostileMode): Promise<Address> {
  const wallet = localWalletClient(chain, testAccounts(1)[0]!);
  const hash = await wallet.deployContract({ abi: artifacts.HostileToken.abi, bytecode: artifacts.HostileToken.bytecode, args: [HOSTILE_MODES.indexOf(mode)] });
  const receipt = await localPublicClient(chain).waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying a ${mode} HostileToken failed`);
  return getAddress(receipt.contractAddress);
}
