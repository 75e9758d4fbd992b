import { createChainReader, type ChainReader } from '@raffle/chain';
import { deployDemoContracts, startAnvil, type DeployedDemoContracts } from '@raffle/chain/local';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's local chain (anvil) and its demo contracts. */
    localChain: { CHAIN_RPC_URLS: string; rpcUrl: string; contracts: DeployedDemoContracts };
  }
}

/**
 * Global setup: one local chain per run (anvil with the demo ERC-20/721/1155 deployed by test
 * account 0), provided to the test files, so services read a real chain and no test reaches the
 * internet. Tests that mint use their own fresh wallets, so files share it safely.
 */
export async function setupLocalChain(project: TestProject): Promise<() => Promise<void>> {
  const chain = await startAnvil({ port: 0 });
  try {
    const contracts = await deployDemoContracts(chain);
    project.provide('localChain', { CHAIN_RPC_URLS: chain.env.CHAIN_RPC_URLS, rpcUrl: chain.rpcUrl, contracts });
  } catch (error) {
    await chain.stop();
    throw error;
  }
  return () => chain.stop();
}

/** The run's local chain as service settings (CHAIN_RPC_URLS), for a test's config. */
export const localChainEnv = (): Record<string, string> => ({ CHAIN_RPC_URLS: inject('localChain').CHAIN_RPC_URLS });

/** The run's local chain: its URL and the demo contracts' addresses. */
export const localChainInfo = (): { CHAIN_RPC_URLS: string; rpcUrl: string; contracts: DeployedDemoContracts } => inject('localChain');

/** A reader of the run's local chain (`anvil`), for tests that evaluate requirements through the domain. */
export const localChainReader = (): ChainReader => createChainReader([{ name: 'anvil', rpcUrl: inject('localChain').rpcUrl }]);
