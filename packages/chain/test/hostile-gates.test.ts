import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainUnavailable, createChainReader, type Address, type ChainReader, type HoldingQuery } from '../src/index.js';
import { deployDemoContracts, deployHostileToken, HOSTILE_MODES, mintDemoHoldings, startAnvil, type DeployedDemoContracts, type LocalChain } from '../src/local/index.js';
import { freshWallet } from './support/fresh-wallet.js';

let chain: LocalChain;
let contracts: DeployedDemoContracts;
let hostile: Record<(typeof HOSTILE_MODES)[number], Address>;
let reader: ChainReader;

beforeAll(async () => {
  chain = await startAnvil();
  contracts = await deployDemoContracts(chain, { name: 'Healthy Pass', symbol: 'OK' });
  const deployed = [];
  for (const mode of HOSTILE_MODES) deployed.push([mode, await deployHostileToken(chain, mode)] as const);
  hostile = Object.fromEntries(deployed) as typeof hostile;
  reader = createChainReader([{ name: 'anvil', rpcUrl: chain.rpcUrl }], { latestCacheMs: 0 });
}, 60_000);

afterAll(async () => {
  await reader?.close();
  await chain?.stop();
});

const passOf = (wallet: Address): HoldingQuery => ({ kind: 'erc721', contract: contracts.erc721, wallet });
const hostileRead = (contract: Address): HoldingQuery => ({ kind: 'erc721', contract, wallet: freshWallet() });

describe("one tenant's hostile gate and another's healthy one, read together", () => {
  it('answers the healthy reads exactly and the hostile ones as holding nothing, in one combined read', async () => {
    const holders = [freshWallet(), freshWallet(), freshWallet()];
    await mintDemoHoldings(chain, contracts, { erc721: holders.map((to, i) => ({ to, tokenId: 9_000n + BigInt(i) })) });
    // Four gas burners would leave aggregate3 no gas for the rest; a 2 MB answer is copied whole by it.
    const poison = [...HOSTILE_MODES.map((mode) => hostileRead(hostile[mode])), ...[1, 2, 3].map(() => hostileRead(hostile['gas-burner']))];
    const balances = await reader.readHoldings('anvil', [...poison, ...holders.map(passOf), passOf(freshWallet())], 'latest');
    expect(balances).toEqual([...poison.map(() => 0n), 1n, 1n, 1n, 0n]);
  });

  it("answers each caller of a coalesced tick with its own reads: the healthy raffle's entrants are not failed by the other's gate", async () => {
    const holders = Array.from({ length: 8 }, () => freshWallet());
    await mintDemoHoldings(chain, contracts, { erc721: holders.map((to, i) => ({ to, tokenId: 9_100n + BigInt(i) })) });
    // Separate callers in the same tick join one flush, as concurrent entries of two workspaces do.
    const healthy = holders.map((wallet) => reader.readHoldings('anvil', [passOf(wallet)], 'latest'));
    const attacks = HOSTILE_MODES.flatMap((mode) => [1, 2].map(() => reader.readHoldings('anvil', [hostileRead(hostile[mode])], 'latest')));
    expect(await Promise.all(healthy)).toEqual(holders.map(() => [1n]));
    expect(await Promise.all(attacks)).toEqual(attacks.map(() => [0n]));
  });

  it("answers a hostile contract's name as none, without failing", async () => {
    for (const mode of HOSTILE_MODES) expect(await reader.tokenName('anvil', hostile[mode]), mode).toBeUndefined();
    expect(await reader.tokenName('anvil', contracts.erc721)).toBe('Healthy Pass');
  });
});

describe('a combined read the node refuses', () => {
  let refusing: Server;
  let refusingReader: ChainReader;
  let refusedCalls = 0;
  const refusedContract = freshWallet().toLowerCase().slice(2);

  beforeAll(async () => {
    // An RPC in front of anvil that answers a JSON-RPC error to any eth_call naming one contract,
    // as a provider does to a call it will not run (a response cap, a rate class): the node
    // answers, so this is a refusal to split around, not silence.
    refusing = createServer((incoming, outgoing) => {
      let body = '';
      incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
      incoming.on('end', () => {
        const parsed = JSON.parse(body) as { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[];
        const calls = Array.isArray(parsed) ? parsed : [parsed];
        const refused = calls.filter((call) => call.method === 'eth_call' && JSON.stringify(call.params).toLowerCase().includes(refusedContract));
        refusedCalls += refused.length;
        const upstream = request(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' } }, (answer) => {
          let text = '';
          answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
          answer.on('end', () => {
            const answers = JSON.parse(text) as { id: number }[] | { id: number };
            const list = (Array.isArray(answers) ? answers : [answers]).map((a) =>
              refused.some((call) => call.id === a.id) ? { jsonrpc: '2.0', id: a.id, error: { code: -32005, message: 'response size exceeded' } } : a,
            );
            outgoing.setHeader('content-type', 'application/json');
            outgoing.end(JSON.stringify(Array.isArray(answers) ? list : list[0]));
          });
        });
        upstream.end(body);
      });
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const { port } = refusing.address() as AddressInfo;
    refusingReader = createChainReader([{ name: 'anvil', rpcUrl: `http://127.0.0.1:${port}` }], { latestCacheMs: 0, retries: 0 });
  });

  afterAll(async () => {
    await refusingReader?.close();
    await new Promise((resolve) => refusing?.close(resolve));
  });

  it('is split down to the refused read, which alone fails; the others get their balances', async () => {
    const holders = Array.from({ length: 6 }, () => freshWallet());
    await mintDemoHoldings(chain, contracts, { erc721: holders.map((to, i) => ({ to, tokenId: 9_200n + BigInt(i) })) });
    const refused = refusingReader.readHoldings('anvil', [{ kind: 'erc20', contract: `0x${refusedContract}` as Address, wallet: freshWallet() }], 'latest');
    const healthy = holders.map((wallet) => refusingReader.readHoldings('anvil', [passOf(wallet)], 'latest'));
    await expect(refused).rejects.toBeInstanceOf(ChainUnavailable);
    expect(await Promise.all(healthy)).toEqual(holders.map(() => [1n]));
    expect(refusedCalls).toBeGreaterThan(1);
  });
});
