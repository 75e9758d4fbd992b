import { createChainReader, type ChainReader } from '@raffle/chain';
import { deployDemoContracts, mineBlock, mintDemoHoldings, startAnvil, type DeployedDemoContracts, type LocalChain } from '@raffle/chain/local';
import type { schema } from '@raffle/db';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateChainRequirements, type ChainSubject } from '../src/index.js';

type RaffleRequirement = schema.RaffleRequirement;

const ETHER = 10n ** 18n;
const freshWallet = () => privateKeyToAccount(generatePrivateKey()).address;

let chain: LocalChain;
let contracts: DeployedDemoContracts;
let reader: ChainReader;
let readHoldingsCalls = 0;
let beforeMint: bigint;

// One wallet holding a pass; two wallets splitting tokens, items and ether; one with none at all.
const single = freshWallet();
const [splitA, splitB] = [freshWallet(), freshWallet()];
const elsewhere = freshWallet();

beforeAll(async () => {
  chain = await startAnvil();
  contracts = await deployDemoContracts(chain, { name: 'Nebula Pass', symbol: 'NEB' });
  beforeMint = await mineBlock(chain);
  await mintDemoHoldings(chain, contracts, {
    erc721: [{ to: single, tokenId: 1n }],
    erc20: [
      { to: splitA, amount: 600n },
      { to: splitB, amount: 400n },
    ],
    erc1155: [
      { to: splitA, id: 7n, amount: 1n },
      { to: splitB, id: 7n, amount: 1n },
      { to: elsewhere, id: 7n, amount: 5n },
    ],
    native: [
      { to: splitA, wei: 4n * 10n ** 16n },
      { to: splitB, wei: 1n * 10n ** 16n },
    ],
  });
  const real = createChainReader([{ name: 'anvil', rpcUrl: chain.rpcUrl }]);
  reader = {
    ...real,
    chains: real.chains,
    readHoldings: (...args) => {
      readHoldingsCalls += 1;
      return real.readHoldings(...args);
    },
  };
});

afterAll(async () => {
  await reader?.close();
  await chain?.stop();
});

const requirement = (type: string, params: Record<string, unknown>, label = type): RaffleRequirement => ({ id: `req_${type}`, type, label, params });

const subjects: ChainSubject[] = [
  { userId: 'single', wallets: [{ chain: 'anvil', address: single }] },
  {
    userId: 'split',
    wallets: [
      { chain: 'anvil', address: splitA },
      { chain: 'anvil', address: splitB.toLowerCase() },
      // On another chain: never counted towards an anvil requirement.
      { chain: 'ethereum', address: elsewhere },
    ],
  },
  { userId: 'none', wallets: [] },
];

async function evaluate(requirements: RaffleRequirement[], block: bigint | 'latest' = 'latest') {
  return evaluateChainRequirements(reader, requirements, subjects, () => block);
}

describe('evaluateChainRequirements on a real chain', () => {
  it('passes and fails each standard at its threshold, summing the entrant’s wallets on that chain', async () => {
    const pass = (min: string) => requirement('token_balance', { chain: 'anvil', contract: contracts.erc721, standard: 'erc721', min }, 'Hold a pass');
    const tokens = (min: string) => requirement('token_balance', { chain: 'anvil', contract: contracts.erc20, standard: 'erc20', min });
    const items = (min: string) => requirement('token_balance', { chain: 'anvil', contract: contracts.erc1155, standard: 'erc1155', tokenId: '7', min });
    const ether = (min: bigint) => requirement('native_balance', { chain: 'anvil', min: min.toString() });
    const requirements = [pass('1'), pass('2'), tokens('1000'), tokens('1001'), items('2'), items('3'), ether(5n * 10n ** 16n), ether(6n * 10n ** 16n)];
    readHoldingsCalls = 0;
    const verdicts = await evaluate(requirements);
    expect(readHoldingsCalls).toBe(1);

    const passed = (user: string) => verdicts.get(user)!.map((verdict) => verdict?.passed);
    expect(passed('single')).toEqual([true, false, false, false, false, false, false, false]);
    expect(passed('split')).toEqual([false, false, true, false, true, false, true, false]);
    expect(passed('none')).toEqual([false, false, false, false, false, false, false, false]);

    const split = verdicts.get('split')!;
    expect(split[0]!.detail).toBe('holds 0 Nebula Pass, needs 1');
    expect(split[3]!.detail).toBe('holds 1000 base units of Nebula Pass Token, needs 1001');
    expect(split[5]!.detail).toBe('holds 2 of token id 7, needs 3');
    expect(split[7]!.detail).toBe('holds 0.05 ETH, needs 0.06 ETH');
    expect(split[3]!.evidence).toEqual({
      chain: 'anvil',
      block: 'latest',
      wallets: [
        { address: splitA.toLowerCase(), balance: '600' },
        { address: splitB.toLowerCase(), balance: '400' },
      ],
      total: '1000',
      min: '1001',
    });
    expect(verdicts.get('none')![0]!.detail).toBe('holds 0 Nebula Pass, needs 1 (no verified wallet on anvil)');
    // The public detail never names a wallet.
    for (const row of verdicts.values()) {
      for (const verdict of row) {
        for (const address of [single, splitA, splitB, elsewhere]) expect(verdict!.detail.toLowerCase()).not.toContain(address.toLowerCase().slice(2));
      }
    }
  });

  it('reads at the block it is given: before the mints, nobody holds anything', async () => {
    const verdicts = await evaluate([requirement('token_balance', { chain: 'anvil', contract: contracts.erc721, standard: 'erc721', min: '1' })], beforeMint);
    expect(verdicts.get('single')![0]).toMatchObject({ passed: false, evidence: { block: beforeMint.toString(), total: '0' } });
  });

  it('leaves the platform’s own requirement types to the database (null) and reads nothing when none is on-chain', async () => {
    readHoldingsCalls = 0;
    const verdicts = await evaluate([requirement('email_verified', {}), requirement('wallet_connected', { chain: 'anvil' })]);
    expect(verdicts.get('single')).toEqual([null, null]);
    expect(readHoldingsCalls).toBe(0);
  });

  it('reads thousands of entrants in a few bounded calls', async () => {
    const many: ChainSubject[] = Array.from({ length: 2_000 }, (_, index) => ({ userId: `u${index}`, wallets: [{ chain: 'anvil', address: freshWallet() }] }));
    const before = reader.stats();
    const verdicts = await evaluateChainRequirements(
      reader,
      [requirement('token_balance', { chain: 'anvil', contract: contracts.erc721, standard: 'erc721', min: '1' })],
      many,
      () => 'latest',
    );
    expect(verdicts.size).toBe(2_000);
    // 2,000 balances at 200 per bounded call: ten eth_calls.
    expect(reader.stats().rpcCalls - before.rpcCalls).toBe(10);
  });
});
