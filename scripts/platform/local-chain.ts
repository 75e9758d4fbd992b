import { deployDemoContracts, mintDemoHoldings, startAnvil, type LocalChain } from '@raffle/chain/local';
import { DEMO_CONTRACTS, DEMO_NEBULA_PASS_HOLDERS, NEBULA_PASS_NAME } from './db.js';

/**
 * The platform's own EVM chain: anvil (from the npm package @foundry-rs/anvil) with the demo's
 * contracts — the "Nebula Pass" ERC-721, an ERC-20 and an ERC-1155 — deployed by test account 0,
 * and the demo's passes minted, so the token-gated demo raffle reads a real chain and nothing needs
 * the internet. A fresh chain on every start: the demo's stored raffle names the contract by the
 * address a fresh chain gives it (packages/demo's demo-chain.ts), which this checks.
 */
export async function startPlatformChain(options: { port: number; blockTime: number }, say: (message: string) => void = () => {}): Promise<LocalChain> {
  const chain = await startAnvil({ port: options.port, blockTime: options.blockTime });
  try {
    const contracts = await deployDemoContracts(chain, { name: NEBULA_PASS_NAME });
    if (contracts.erc721 !== DEMO_CONTRACTS.erc721) {
      say(`the Nebula Pass deployed at ${contracts.erc721}, not ${DEMO_CONTRACTS.erc721} as the demo data says: the gated demo raffle will refuse everyone`);
    }
    await mintDemoHoldings(chain, contracts, { erc721: [...DEMO_NEBULA_PASS_HOLDERS] });
    return chain;
  } catch (error) {
    await chain.stop();
    throw error;
  }
}
