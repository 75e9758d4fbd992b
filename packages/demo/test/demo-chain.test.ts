import { createChainReader, type ChainReader } from '@raffle/chain';
import { deployDemoContracts, mintDemoHoldings, startAnvil, type LocalChain } from '@raffle/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CHAIN_ACCOUNTS, DEMO_CONTRACTS, DEMO_NEBULA_PASS_HOLDERS, NEBULA_PASS_NAME } from '../src/index.js';

/**
 * The demo data names the Nebula Pass by the address a fresh chain gives it, and its personas'
 * wallets by anvil's test accounts. `start` deploys and mints on a fresh anvil exactly like this
 * (scripts/platform/local-chain.ts): the stored gated raffle and the chain must agree.
 */
let chain: LocalChain;
let reader: ChainReader;

beforeAll(async () => {
  chain = await startAnvil({ port: 0, blockTime: 0 });
  reader = createChainReader([{ name: 'anvil', rpcUrl: chain.rpcUrl }]);
});

afterAll(async () => {
  await reader?.close();
  await chain?.stop();
});

describe("the demo's local chain", () => {
  it('deploys the Nebula Pass where the demo data says, and the passes land with alice and carol, not bob', async () => {
    const contracts = await deployDemoContracts(chain, { name: NEBULA_PASS_NAME });
    expect(contracts).toEqual(DEMO_CONTRACTS);
    await mintDemoHoldings(chain, contracts, { erc721: [...DEMO_NEBULA_PASS_HOLDERS] });
    const wallets = [DEMO_CHAIN_ACCOUNTS.alice, DEMO_CHAIN_ACCOUNTS.bob, DEMO_CHAIN_ACCOUNTS.carol];
    const balances = await reader.readHoldings('anvil', wallets.map((wallet) => ({ kind: 'erc721' as const, contract: DEMO_CONTRACTS.erc721, wallet })), 'latest');
    expect(balances).toEqual([1n, 0n, 1n]);
    expect(await reader.tokenName('anvil', DEMO_CONTRACTS.erc721)).toBe(NEBULA_PASS_NAME);
  });
});
