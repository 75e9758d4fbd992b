/**
 * A local EVM chain for tests, `start` and the benchmark: anvil (from the npm package
 * @foundry-rs/anvil) with the contracts of src/contracts (OpenZeppelin's ERC-20/721/1155 and an
 * ERC-1271 wallet, compiled with solc into committed artifacts) and a multicall aggregator at the
 * canonical Multicall3 address.
 *
 * INTERFACE SKELETON (issue 25).
 */
import type { Address } from '../index.js';

export type LocalChain = {
  /** `anvil` */
  name: string;
  rpcUrl: string;
  chainId: number;
  /** CHAIN_RPC_URLS for this chain. */
  env: { CHAIN_RPC_URLS: string };
  stop(): Promise<void>;
};

export type DeployedDemoContracts = {
  erc20: Address;
  erc721: Address;
  erc1155: Address;
};

/**
 * A funded account of anvil's default test mnemonic (public, test-only): index 0 deploys.
 * Returned as a viem LocalAccount.
 */
export type { LocalAccount } from 'viem';
