import type { WalletLinkChains } from '@raffle/domain';

export type TestChain = { name: string; chainId: number; reader: WalletLinkChains; close(): Promise<void> };

/**
 * TEMPORARY until @raffle/chain lands: a reader naming one chain (anvil's id) whose contract-wallet
 * check refuses everything. EOA links never ask it (the signature is recovered locally).
 */
export async function testChainReader(): Promise<TestChain> {
  const reader: WalletLinkChains = {
    chains: ['anvil'],
    chainNameOf: async (id) => (id === 31337 ? 'anvil' : undefined),
    chainIdOf: async () => 31337,
    verifyMessage: async () => false,
  };
  return { name: 'anvil', chainId: 31337, reader, close: async () => {} };
}
