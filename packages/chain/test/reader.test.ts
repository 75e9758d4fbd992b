import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainNotConfigured, createChainReader, type ChainReader, type HoldingQuery } from '../src/index.js';
import {
  deployDemoContracts,
  mineBlock,
  mintDemoHoldings,
  startAnvil,
  testAccounts,
  transferErc20,
  transferErc721,
  transferErc1155,
  type DeployedDemoContracts,
  type LocalChain,
} from '../src/local/index.js';
import { localPublicClient } from '../src/local/chain-clients.js';
import { freshWallet } from './support/fresh-wallet.js';

let chain: LocalChain;
let contracts: DeployedDemoContracts;
let reader: ChainReader;

beforeAll(async () => {
  chain = await startAnvil();
  contracts = await deployDemoContracts(chain, { name: 'Nebula Pass', symbol: 'NEB' });
  reader = createChainReader([{ name: 'anvil', rpcUrl: chain.rpcUrl }]);
});

afterAll(async () => {
  await reader?.close();
  await chain?.stop();
});

/** The HTTP requests the reader sent while `run` ran. */
async function requestsDuring(run: () => Promise<unknown>): Promise<number> {
  return (await trafficDuring(run)).requests;
}

/** HTTP requests and the JSON-RPC calls in them, while `run` ran. */
async function trafficDuring(run: () => Promise<unknown>): Promise<{ requests: number; calls: number }> {
  const before = reader.stats();
  await run();
  const after = reader.stats();
  return { requests: after.rpcRequests - before.rpcRequests, calls: after.rpcCalls - before.rpcCalls };
}

describe('the chain reader on a real anvil', () => {
  it('reads each standard and the native balance', async () => {
    const wallet = freshWallet();
    await mintDemoHoldings(chain, contracts, {
      erc20: [{ to: wallet, amount: 1_500n }],
      erc721: [
        { to: wallet, tokenId: 101n },
        { to: wallet, tokenId: 102n },
      ],
      erc1155: [{ to: wallet, id: 7n, amount: 3n }],
      native: [{ to: wallet, wei: 5n * 10n ** 16n }],
    });
    const balances = await reader.readHoldings(
      'anvil',
      [
        { kind: 'erc20', contract: contracts.erc20, wallet },
        { kind: 'erc721', contract: contracts.erc721, wallet },
        { kind: 'erc1155', contract: contracts.erc1155, tokenId: 7n, wallet },
        { kind: 'erc1155', contract: contracts.erc1155, tokenId: 8n, wallet },
        { kind: 'native', wallet },
      ],
      'latest',
    );
    expect(balances).toEqual([1_500n, 2n, 3n, 0n, 5n * 10n ** 16n]);
  });

  it('counts a call that reverts or reaches no contract as 0, not an error', async () => {
    const wallet = freshWallet();
    await mintDemoHoldings(chain, contracts, { erc1155: [{ to: wallet, id: 1n, amount: 1n }] });
    const balances = await reader.readHoldings(
      'anvil',
      [
        { kind: 'erc721', contract: contracts.erc1155, wallet }, // an ERC-1155 has no balanceOf(address)
        { kind: 'erc20', contract: freshWallet(), wallet }, // no code there
        { kind: 'erc721', contract: contracts.erc721, wallet: '0x0000000000000000000000000000000000000000' }, // ERC-721 reverts for the zero address
      ],
      'latest',
    );
    expect(balances).toEqual([0n, 0n, 0n]);
  });

  it('reads many wallets in a few requests: a bounded eth_call per 200 contract reads, natives in the same JSON-RPC batch', async () => {
    const wallets = Array.from({ length: 120 }, freshWallet);
    const queries: HoldingQuery[] = wallets.flatMap((wallet) => [
      { kind: 'erc20', contract: contracts.erc20, wallet },
      { kind: 'erc721', contract: contracts.erc721, wallet },
      { kind: 'native', wallet },
    ]);
    const traffic = await trafficDuring(() => reader.readHoldings('anvil', queries, 'latest'));
    // One HTTP request: two bounded eth_calls for the 240 contract reads (200 + 40), 120 eth_getBalance beside them.
    expect(traffic).toEqual({ requests: 1, calls: 2 + 120 });
  });

  it('coalesces separate readHoldings calls made in the same tick into one request', async () => {
    const wallets = Array.from({ length: 200 }, freshWallet);
    const traffic = await trafficDuring(() =>
      Promise.all(wallets.map((wallet) => reader.readHoldings('anvil', [{ kind: 'erc721', contract: contracts.erc721, wallet }], 'latest'))),
    );
    expect(traffic).toEqual({ requests: 1, calls: 1 });
  });

  it('answers a repeated read at a pinned block from the cache', async () => {
    const wallet = freshWallet();
    await mintDemoHoldings(chain, contracts, { erc20: [{ to: wallet, amount: 9n }] });
    const block = (await reader.latestBlock('anvil')).number;
    const query: HoldingQuery = { kind: 'erc20', contract: contracts.erc20, wallet };
    expect(await reader.readHoldings('anvil', [query], block)).toEqual([9n]);
    const hitsBefore = reader.stats().cacheHits;
    const requests = await requestsDuring(async () => expect(await reader.readHoldings('anvil', [query], block)).toEqual([9n]));
    expect(requests).toBe(0);
    expect(reader.stats().cacheHits).toBe(hitsBefore + 1);
  });

  it('shares the read already under way for the same holding (single-flight)', async () => {
    const query: HoldingQuery = { kind: 'erc20', contract: contracts.erc20, wallet: freshWallet() };
    const traffic = await trafficDuring(async () => {
      const first = reader.readHoldings('anvil', [query], 'latest');
      // Past the batcher's flush: the first read is on the wire when the second asks.
      await new Promise((resolve) => setImmediate(resolve));
      const second = reader.readHoldings('anvil', [query], 'latest');
      expect(await Promise.all([first, second])).toEqual([[0n], [0n]]);
    });
    expect(traffic.calls).toBe(1);
  });

  it('reads at a pinned block see the chain as it was then', async () => {
    const wallet = freshWallet();
    const before = await mineBlock(chain);
    await mintDemoHoldings(chain, contracts, { erc721: [{ to: wallet, tokenId: 900n }], erc20: [{ to: wallet, amount: 10n }] });
    const queries: HoldingQuery[] = [
      { kind: 'erc721', contract: contracts.erc721, wallet },
      { kind: 'erc20', contract: contracts.erc20, wallet },
    ];
    expect(await reader.readHoldings('anvil', queries, before)).toEqual([0n, 0n]);
    expect(await reader.readHoldings('anvil', queries, 'latest')).toEqual([1n, 10n]);
  });

  it('sees a transfer between two blocks: the sender held the pass before, the receiver after', async () => {
    const [, seller] = testAccounts(2);
    const buyer = freshWallet();
    await mintDemoHoldings(chain, contracts, { erc721: [{ to: seller!.address, tokenId: 555n }], erc20: [{ to: seller!.address, amount: 70n }], erc1155: [{ to: seller!.address, id: 3n, amount: 4n }] });
    const atEntry = await mineBlock(chain);
    await transferErc721(chain, contracts.erc721, seller!, buyer, 555n);
    await transferErc20(chain, contracts.erc20, seller!, buyer, 30n);
    await transferErc1155(chain, contracts.erc1155, seller!, buyer, 3n, 1n);
    const atClose = await mineBlock(chain);
    const holdings = (wallet: `0x${string}`): HoldingQuery[] => [
      { kind: 'erc721', contract: contracts.erc721, wallet },
      { kind: 'erc20', contract: contracts.erc20, wallet },
      { kind: 'erc1155', contract: contracts.erc1155, tokenId: 3n, wallet },
    ];
    expect(await reader.readHoldings('anvil', [...holdings(buyer)], atEntry)).toEqual([0n, 0n, 0n]);
    expect(await reader.readHoldings('anvil', [...holdings(buyer)], atClose)).toEqual([1n, 30n, 1n]);
    const sellerAtClose = await reader.readHoldings('anvil', [...holdings(seller!.address)], atClose);
    const sellerAtEntry = await reader.readHoldings('anvil', [...holdings(seller!.address)], atEntry);
    expect(sellerAtEntry[0]! - sellerAtClose[0]!).toBe(1n);
    expect(sellerAtEntry[1]! - sellerAtClose[1]!).toBe(30n);
    expect(sellerAtEntry[2]! - sellerAtClose[2]!).toBe(1n);
  });

  it('finds the first block at or after a moment, and null for a moment the chain has not reached', async () => {
    await mineBlock(chain);
    await mineBlock(chain);
    const latest = await reader.latestBlock('anvil');
    const at = new Date(latest.timestamp.getTime() - 1_500);
    const found = await reader.firstBlockAtOrAfter('anvil', at);
    expect(found).not.toBeNull();
    expect(found!.timestamp.getTime()).toBeGreaterThanOrEqual(at.getTime());
    expect(found!.number).toBeGreaterThan(0n);
    // The block before it is older than the moment: it really is the first.
    const before = await localPublicClient(chain).getBlock({ blockNumber: found!.number - 1n });
    expect(Number(before.timestamp) * 1000).toBeLessThan(at.getTime());
    expect((await reader.firstBlockAtOrAfter('anvil', new Date(0)))?.number).toBe(0n);
    expect(await reader.firstBlockAtOrAfter('anvil', new Date(Date.now() + 3_600_000))).toBeNull();
  });

  it('names the token and knows the chain id', async () => {
    expect(await reader.tokenName('anvil', contracts.erc721)).toBe('Nebula Pass');
    expect(await reader.tokenName('anvil', contracts.erc1155)).toBeUndefined();
    expect(await reader.chainIdOf('anvil')).toBe(31337);
    expect(await reader.chainNameOf(31337)).toBe('anvil');
    expect(await reader.chainNameOf(1)).toBeUndefined();
  });

  it('refuses a chain it is not configured for', async () => {
    await expect(reader.readHoldings('ethereum', [{ kind: 'native', wallet: freshWallet() }], 'latest')).rejects.toBeInstanceOf(ChainNotConfigured);
    await expect(reader.latestBlock('ethereum')).rejects.toBeInstanceOf(ChainNotConfigured);
  });

  it('lets the deployer mint (test account 0 owns the demo contracts)', () => {
    expect(testAccounts(1)[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  });
});
