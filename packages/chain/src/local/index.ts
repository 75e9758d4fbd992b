/**
 * A local EVM chain for tests, `start` and the benchmark: anvil (from the npm package
 * @foundry-rs/anvil) with the contracts of packages/chain/contracts (OpenZeppelin's ERC-20/721/1155
 * and an ERC-1271 wallet, compiled with solc into committed artifacts) and a multicall aggregator at
 * the canonical Multicall3 address.
 */
export { startAnvil, type LocalChain, type StartAnvilOptions } from './start-anvil.js';
export {
  deployDemoContracts,
  mintDemoHoldings,
  setNativeBalance,
  deployOwnerWallet,
  transferErc20,
  transferErc721,
  transferErc1155,
  mineBlock,
  type DeployedDemoContracts,
  type DemoHoldings,
} from './demo-contracts.js';
export { deployHostileToken, HOSTILE_MODES, type HostileMode } from './hostile-tokens.js';
export { deployAllowlistMint } from './allowlist-mint.js';
export { testAccounts } from './test-accounts.js';
export { artifacts, type Artifact } from './artifacts.js';
/**
 * A funded account of anvil's default test mnemonic (public, test-only): index 0 deploys.
 * Returned as a viem LocalAccount.
 */
export type { LocalAccount } from 'viem';
