import { createChainReader, type ChainReader } from '@raffle/chain';
import { deployDemoContracts, mintDemoHoldings, startAnvil, type DeployedDemoContracts, type LocalChain } from '@raffle/chain/local';
import { schema } from '@raffle/db';
import { eq } from 'drizzle-orm';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterRaffle, settlePendingEntries, userPrincipal, type ChainCheck } from '../src/index.js';
import { useWorld } from './support/world.js';

/**
 * One raffle's failing chain read never holds another raffle's entries (issue 34): the settle
 * pass settles every raffle it could read and leaves only the failed one's entries pending; it
 * never claims a cancelled raffle's entries, nor a raffle it was told to leave alone for now;
 * and an entry is never refused on the reader's cached view of `latest`.
 */

const world = useWorld();
let chain: LocalChain;
let contracts: DeployedDemoContracts;
/** Two chains: `anvil` answers, `dead` never does (nothing listens there). */
let reader: ChainReader;
let check: ChainCheck;
let silent: ChainCheck;

beforeAll(async () => {
  chain = await startAnvil({ blockTime: 0 });
  contracts = await deployDemoContracts(chain, { name: 'Nebula Pass', symbol: 'NEB' });
  reader = createChainReader(
    [
      { name: 'anvil', rpcUrl: chain.rpcUrl },
      { name: 'dead', rpcUrl: 'http://127.0.0.1:9' },
    ],
    { latestCacheMs: 0, retries: 0, timeoutMs: 500 },
  );
  check = { reader, timeoutMs: 5_000 };
  silent = {
    reader: createChainReader(
      [
        { name: 'anvil', rpcUrl: 'http://127.0.0.1:9' },
        { name: 'dead', rpcUrl: 'http://127.0.0.1:9' },
      ],
      { retries: 0, timeoutMs: 300 },
    ),
    timeoutMs: 2_000,
  };
});
afterAll(async () => {
  await reader?.close();
  await silent?.reader?.close();
  await chain?.stop();
});

const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address;
let nextTokenId = 50_000n;

async function holderOfPass(): Promise<{ id: string; wallet: Address }> {
  const wallet = fresh();
  await mintDemoHoldings(chain, contracts, { erc721: [{ to: wallet, tokenId: nextTokenId++ }] });
  const user = await world.user({ wallets: [{ chain: 'anvil', address: wallet, verified: true }] });
  return { id: user.id, wallet };
}

const passOn = (chainName: string) =>
  [{ id: 'pass', type: 'token_balance', label: 'A pass', params: { chain: chainName, contract: contracts.erc721, standard: 'erc721', min: '1' } }] as never;

const enter = (raffleId: string, userId: string, chainCheck: ChainCheck) =>
  enterRaffle(world.db, { raffle: { raffleId }, actor: userPrincipal(userId), source: 'api', chain: chainCheck, beacon: world.beacon.chain });

const statusesOf = async (raffleId: string) =>
  (await world.db.select().from(schema.entries).where(eq(schema.entries.raffleId, raffleId)).orderBy(schema.entries.id)).map((e) => e.status);

describe('settling pending entries, raffle by raffle', () => {
  it("settles the raffles it could read although another raffle's read failed in the same pass; only that one's entries stay pending", async () => {
    const healthy = await world.openRaffle({ requirements: passOn('anvil') });
    const failing = await world.openRaffle({ requirements: passOn('dead') });
    // The failing raffle's entries are the oldest: they head the batch.
    for (let i = 0; i < 3; i++) expect((await enter(failing.id, (await holderOfPass()).id, silent)).entry.status).toBe('pending');
    for (let i = 0; i < 3; i++) expect((await enter(healthy.id, (await holderOfPass()).id, silent)).entry.status).toBe('pending');

    const pass = await settlePendingEntries({ db: world.db, chain: check, beacon: world.beacon.chain, batchSize: 50 });
    expect(pass).toMatchObject({ valid: 3, invalid: 0, chainSilent: false, silentRaffleIds: [failing.id], settledRaffleIds: [healthy.id] });
    expect(await statusesOf(healthy.id)).toEqual(['valid', 'valid', 'valid']);
    expect(await statusesOf(failing.id)).toEqual(['pending', 'pending', 'pending']);
  });

  it('never claims the entries of a raffle it is told to leave alone, so a failing backlog cannot fill the batch', async () => {
    const crowding = await world.openRaffle({ requirements: passOn('dead') });
    const other = await world.openRaffle({ requirements: passOn('anvil') });
    for (let i = 0; i < 4; i++) await enter(crowding.id, (await holderOfPass()).id, silent);
    await enter(other.id, (await holderOfPass()).id, silent);
    const pass = await settlePendingEntries({ db: world.db, chain: check, beacon: world.beacon.chain, batchSize: 4, skipRaffleIds: [crowding.id] });
    expect(pass.silentRaffleIds).not.toContain(crowding.id);
    expect(await statusesOf(other.id)).toEqual(['valid']);
  });

  it("never claims a cancelled raffle's pending entries (nothing of it is read again)", async () => {
    const cancelled = await world.openRaffle({ requirements: passOn('anvil') });
    await enter(cancelled.id, (await holderOfPass()).id, silent);
    await world.db.update(schema.raffles).set({ status: 'cancelled' }).where(eq(schema.raffles.id, cancelled.id));
    const pass = await settlePendingEntries({ db: world.db, chain: check, beacon: world.beacon.chain, batchSize: 1_000 });
    expect([...pass.settledRaffleIds, ...pass.silentRaffleIds]).not.toContain(cancelled.id);
    expect(await statusesOf(cancelled.id)).toEqual(['pending']);
  });
});

describe('a refusal is never made on a cached read of `latest`', () => {
  it('reads the chain again before refusing: a pass minted after the last cached read lets the entrant in', async () => {
    const caching = createChainReader([{ name: 'anvil', rpcUrl: chain.rpcUrl }], { latestCacheMs: 600_000 });
    try {
      const raffle = await world.openRaffle({ requirements: passOn('anvil') });
      const wallet = fresh();
      const user = await world.user({ wallets: [{ chain: 'anvil', address: wallet, verified: true }] });
      const cachingCheck = { reader: caching, timeoutMs: 5_000 };
      const refused = await enter(raffle.id, user.id, cachingCheck).then(() => null, (error: { code?: string }) => error.code);
      expect(refused).toBe('REQUIREMENTS_NOT_MET');
      await mintDemoHoldings(chain, contracts, { erc721: [{ to: wallet, tokenId: nextTokenId++ }] });
      // The reader's cache still says 0 for ten minutes; the refusal must not rest on it.
      expect(await caching.readHoldings('anvil', [{ kind: 'erc721', contract: contracts.erc721, wallet }], 'latest')).toEqual([0n]);
      const { entry } = await enter(raffle.id, user.id, cachingCheck);
      expect(entry.status).toBe('valid');
    } finally {
      await caching.close();
    }
  });
});
