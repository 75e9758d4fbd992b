import { setTimeout as sleep } from 'node:timers/promises';
import { ChainUnavailable, createChainReader, type ChainReader } from '@raffle/chain';
import {
  deployDemoContracts,
  mineBlock,
  mintDemoHoldings,
  setNativeBalance,
  startAnvil,
  transferErc1155,
  transferErc721,
  type DeployedDemoContracts,
  type LocalChain,
} from '@raffle/chain/local';
import { findDrawSnapshot, insertEntry, schema } from '@raffle/db';
import { parseEntryLines } from '@raffle/sdk';
import { eq } from 'drizzle-orm';
import { createPublicClient, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRaffle, CloseBlockPending, drawRaffle, enterRaffle, userPrincipal, type RaffleRecord } from '../src/index.js';
import { useWorld } from './support/world.js';

// A chain of this file's own (1 s blocks, like the run's), so transfers and blocks are this file's alone.
const world = useWorld();
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

/** A wallet of its own that can pay for its transfers. */
async function fundedWallet(): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await setNativeBalance(chain, account.address, 10n ** 18n);
  return account;
}

const passRequirement = (contract: Address) => ({
  id: 'pass',
  type: 'token_balance' as const,
  label: 'Holds a Nebula Pass',
  params: { chain: 'anvil', contract, standard: 'erc721', min: '1' },
});

/** An entrant with one verified wallet on the chain, entered as `status` (how entry time left it). */
async function entrant(raffle: RaffleRecord, wallet: Address, status: 'valid' | 'pending' = 'valid', entryWeight = '1') {
  const user = await world.user({ wallets: [{ chain: 'anvil', address: wallet.toLowerCase(), verified: true }] });
  const entry = await insertEntry(world.db, { raffle, userId: user.id, status, source: 'api', entryWeight });
  return { userId: user.id, entryId: entry.id };
}

const entryOf = async (entryId: string) => (await world.db.select().from(schema.entries).where(eq(schema.entries.id, entryId)))[0]!;
const raffleRow = async (raffleId: string) => (await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffleId)))[0]!;
const snapshotOf = async (raffleId: string) => (await findDrawSnapshot(world.db, raffleId)) ?? undefined;
const evaluationsOf = (entryId: string) => world.db.select().from(schema.entryRequirementEvaluations).where(eq(schema.entryRequirementEvaluations.entryId, entryId));

const close = (raffle: RaffleRecord) => closeRaffle(world.db, { actor: world.team, raffleId: raffle.id, beacon: world.beacon.chain });
const draw = (raffle: RaffleRecord, chainReader: ChainReader = reader) => drawRaffle(world.db, { actor: world.team, raffleId: raffle.id, rounds: world.beacon, chainReader });

/** Resolves once the chain has a block at or after the close: the block the draw will pin. */
async function closeBlock(closedAt: Date) {
  for (;;) {
    const block = await reader.firstBlockAtOrAfter('anvil', closedAt);
    if (block) return block;
    await sleep(200);
  }
}

describe('the draw of a token-gated raffle reads the chain at the first block at or after the close', () => {
  it('a holder who sold before the close is out, the entrant who bought is in, a sale after the close block changes nothing, and the proof names the block', async () => {
    const [seller, keeper, buyer, laterSeller] = await Promise.all([fundedWallet(), fundedWallet(), fundedWallet(), fundedWallet()]);
    const nonHolder = privateKeyToAccount(generatePrivateKey());
    await mintDemoHoldings(chain, contracts, {
      erc721: [
        { to: seller.address, tokenId: 101n },
        { to: keeper.address, tokenId: 102n },
        { to: laterSeller.address, tokenId: 103n },
      ],
    });
    const raffle = await world.openRaffle({ spots: 10, requirements: [passRequirement(contracts.erc721)] });
    // Everyone entered while the seller still held the pass; the buyer entered without one.
    const sold = await entrant(raffle, seller.address);
    const kept = await entrant(raffle, keeper.address);
    const bought = await entrant(raffle, buyer.address, 'pending');
    const later = await entrant(raffle, laterSeller.address);
    const never = await entrant(raffle, nonHolder.address);

    await transferErc721(chain, contracts.erc721, seller, buyer.address, 101n);
    const closed = await close(raffle);
    const pinned = await closeBlock(closed.closedAt!);
    // Mined in a block after the pinned one: the draw must not see it.
    await transferErc721(chain, contracts.erc721, laterSeller, nonHolder.address, 103n);

    const drawReader = createChainReader([{ name: 'anvil', rpcUrl: chain.rpcUrl }]);
    await draw(raffle, drawReader).finally(() => drawReader.close());
    // Every holding was read before the raffle was locked; the reads under the lock came from the reader's cache.
    const { holdingsRead, cacheHits } = drawReader.stats();
    expect(holdingsRead).toBe(2 * 5);
    expect(cacheHits).toBe(5);

    expect((await raffleRow(raffle.id)).status).toBe('drawn');
    expect((await entryOf(sold.entryId)).status).toBe('invalid');
    expect((await entryOf(sold.entryId)).statusReason).toBe('Requirements not met: Holds a Nebula Pass');
    expect((await entryOf(kept.entryId)).status).toBe('valid');
    expect((await entryOf(bought.entryId)).status).toBe('valid');
    expect((await entryOf(later.entryId)).status).toBe('valid');
    expect((await entryOf(never.entryId)).status).toBe('invalid');

    // The proof's block is the chain's own first block at or after the close.
    const snapshot = (await snapshotOf(raffle.id))!;
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const onChain = await client.getBlock({ blockNumber: pinned.number });
    const before = await client.getBlock({ blockNumber: pinned.number - 1n });
    expect(snapshot.eligibilityBlocks).toEqual([
      { chain: 'anvil', chainId: 31337, number: pinned.number.toString(), hash: onChain.hash, timestamp: new Date(Number(onChain.timestamp) * 1000).toISOString() },
    ]);
    expect(Number(onChain.timestamp) * 1000).toBeGreaterThanOrEqual(closed.closedAt!.getTime());
    expect(Number(before.timestamp) * 1000).toBeLessThan(closed.closedAt!.getTime());
    // The frozen eligible set is what the block says.
    expect(parseEntryLines(snapshot.entryLines).map((e) => e.id).sort()).toEqual([kept.entryId, bought.entryId, later.entryId].sort());

    // Each verdict keeps the block it was read at; the entrant sees what failed, about them only.
    const [evaluation] = await evaluationsOf(sold.entryId);
    expect(evaluation).toMatchObject({ passed: false, evidence: { block: { chain: 'anvil', number: pinned.number.toString(), hash: onChain.hash } } });
    const owner = JSON.parse((await entryOf(sold.entryId)).ownerJson) as { requirements: { passed: boolean; detail?: string }[] };
    expect(owner.requirements).toEqual([{ type: 'token_balance', label: 'Holds a Nebula Pass', passed: false, detail: 'holds 0 Nebula Pass, needs 1' }]);
    expect(JSON.stringify(owner)).not.toContain(seller.address.toLowerCase().slice(2));
  });

  it('resolves pending entries and sets weights from optional multipliers at the pinned block', async () => {
    const [both, itemOnlyLater, soldItem, nothing] = await Promise.all([fundedWallet(), fundedWallet(), fundedWallet(), fundedWallet()]);
    await mintDemoHoldings(chain, contracts, {
      erc20: [
        { to: both.address, amount: 100n },
        { to: itemOnlyLater.address, amount: 150n },
        { to: soldItem.address, amount: 100n },
      ],
      erc1155: [
        { to: both.address, id: 7n, amount: 1n },
        { to: soldItem.address, id: 7n, amount: 1n },
      ],
    });
    const raffle = await world.openRaffle({
      spots: 10,
      requirements: [
        { id: 'tok', type: 'token_balance' as const, label: 'Holds 100 NEB', params: { chain: 'anvil', contract: contracts.erc20, standard: 'erc20', min: '100' } },
        { id: 'item', type: 'token_balance' as const, label: 'Item bonus', params: { chain: 'anvil', contract: contracts.erc1155, standard: 'erc1155', tokenId: '7', min: '1', optional: true, multiplier: 2.5 } },
      ],
    });
    const pendingBoth = await entrant(raffle, both.address, 'pending');
    // Entered with the bonus's weight; sold the item before the close.
    const lostBonus = await entrant(raffle, soldItem.address, 'valid', '2.5');
    // Entered without the item, and bought it before the close.
    const gainedBonus = await entrant(raffle, itemOnlyLater.address);
    const pendingNothing = await entrant(raffle, nothing.address, 'pending');

    await transferErc1155(chain, contracts.erc1155, soldItem, itemOnlyLater.address, 7n, 1n);
    const closed = await close(raffle);
    await closeBlock(closed.closedAt!);
    await draw(raffle);

    expect(await entryOf(pendingBoth.entryId)).toMatchObject({ status: 'valid', entryWeight: '2.500000' });
    expect(await entryOf(lostBonus.entryId)).toMatchObject({ status: 'valid', entryWeight: '1.000000' });
    expect(await entryOf(gainedBonus.entryId)).toMatchObject({ status: 'valid', entryWeight: '2.500000' });
    expect(await entryOf(pendingNothing.entryId)).toMatchObject({ status: 'invalid', statusReason: 'Requirements not met: Holds 100 NEB' });
    const weights = Object.fromEntries(parseEntryLines((await snapshotOf(raffle.id))!.entryLines).map((e) => [e.id, e.weight]));
    expect(weights).toEqual({ [pendingBoth.entryId]: '2.5', [lostBonus.entryId]: '1', [gainedBonus.entryId]: '2.5' });
  });

  it('disqualifies the first-come win of an entrant who sold before the close', async () => {
    const [seller, holder] = await Promise.all([fundedWallet(), fundedWallet()]);
    await mintDemoHoldings(chain, contracts, { erc721: [{ to: seller.address, tokenId: 201n }, { to: holder.address, tokenId: 202n }] });
    const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: 5 });
    const enter = async (wallet: Address) => {
      const user = await world.user({ wallets: [{ chain: 'anvil', address: wallet.toLowerCase(), verified: true }] });
      return (await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'api' })).entry.id;
    };
    const sold = await enter(seller.address);
    const kept = await enter(holder.address);
    // The gate as it stood when they entered (evaluating it at entry is the entry's part, not the draw's).
    await world.db.update(schema.raffles).set({ requirements: [passRequirement(contracts.erc721)] }).where(eq(schema.raffles.id, raffle.id));
    await transferErc721(chain, contracts.erc721, seller, holder.address, 201n);
    const closed = await close(raffle);
    await closeBlock(closed.closedAt!);
    await draw(raffle);

    const wins = await world.db.select().from(schema.wins).where(eq(schema.wins.raffleId, raffle.id));
    expect(wins.find((w) => w.entryId === sold)).toMatchObject({ status: 'disqualified' });
    expect(wins.find((w) => w.entryId === kept)).toMatchObject({ status: 'selected' });
    expect((await entryOf(sold)).status).toBe('invalid');
  });

  it('asks no chain and stores no block for a raffle whose requirements read none', async () => {
    const raffle = await world.openRaffle({ spots: 2 });
    await entrant(raffle, privateKeyToAccount(generatePrivateKey()).address);
    await close(raffle);
    const untouchable = new Proxy({} as ChainReader, {
      get: (_target, property) => () => {
        throw new Error(`the chain reader must not be used (${String(property)})`);
      },
    });
    await draw(raffle, untouchable);
    expect((await raffleRow(raffle.id)).status).toBe('drawn');
    expect((await snapshotOf(raffle.id))!.eligibilityBlocks).toBeNull();
  });
});

describe('a draw that cannot read its close block does nothing', () => {
  it('waits (CloseBlockPending) while the chain has no block at or after the close, then draws at that block', async () => {
    // Mines only when told: after the close, no block exists until the test mines one.
    const quiet = await startAnvil({ blockTime: 0 });
    const quietReader = createChainReader([{ name: 'anvil', rpcUrl: quiet.rpcUrl }]);
    try {
      const quietContracts = await deployDemoContracts(quiet);
      const holder = privateKeyToAccount(generatePrivateKey());
      await mintDemoHoldings(quiet, quietContracts, { erc721: [{ to: holder.address, tokenId: 1n }] });
      const raffle = await world.openRaffle({ spots: 2, requirements: [passRequirement(quietContracts.erc721)] });
      const entry = await entrant(raffle, holder.address);
      const closed = await close(raffle);

      await expect(draw(raffle, quietReader)).rejects.toBeInstanceOf(CloseBlockPending);
      expect((await raffleRow(raffle.id)).status).toBe('closed');
      expect(await snapshotOf(raffle.id)).toBeUndefined();
      expect((await evaluationsOf(entry.entryId)).length).toBe(0);

      // Block timestamps are whole seconds: one mined within the close's second could be before it.
      await sleep(Math.max(0, closed.closedAt!.getTime() + 1000 - Date.now()));
      const mined = await mineBlock(quiet);
      await draw(raffle, quietReader);
      expect((await snapshotOf(raffle.id))!.eligibilityBlocks![0]!.number).toBe(mined.toString());
      expect((await entryOf(entry.entryId)).status).toBe('valid');
    } finally {
      await quietReader.close();
      await quiet.stop();
    }
  });

  it('fails with ChainUnavailable when the chain does not answer, and the raffle stays closed', async () => {
    const doomed = await startAnvil();
    const doomedReader = createChainReader([{ name: 'anvil', rpcUrl: doomed.rpcUrl }], { timeoutMs: 500, retries: 0 });
    try {
      const doomedContracts = await deployDemoContracts(doomed);
      const raffle = await world.openRaffle({ spots: 2, requirements: [passRequirement(doomedContracts.erc721)] });
      const entry = await entrant(raffle, privateKeyToAccount(generatePrivateKey()).address);
      await close(raffle);
      await doomed.stop();
      await expect(draw(raffle, doomedReader)).rejects.toBeInstanceOf(ChainUnavailable);
      expect((await raffleRow(raffle.id)).status).toBe('closed');
      expect((await entryOf(entry.entryId)).status).toBe('valid');
      expect(await snapshotOf(raffle.id)).toBeUndefined();
    } finally {
      await doomedReader.close();
      await doomed.stop().catch(() => undefined);
    }
  });
});
