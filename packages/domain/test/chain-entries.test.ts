import { createChainReader, type ChainReader } from '@raffle/chain';
import { deployDemoContracts, mintDemoHoldings, setNativeBalance, startAnvil, type DeployedDemoContracts, type LocalChain } from '@raffle/chain/local';
import { schema } from '@raffle/db';
import { eq, inArray } from 'drizzle-orm';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterRaffle, NOT_EVALUATED_DETAIL, settlePendingEntries, userPrincipal, type ChainCheck } from '../src/index.js';
import { useWorld } from './support/world.js';

/**
 * On-chain requirements evaluated at entry, and pending entries settled later (decision 0027),
 * against a real anvil of this file's own (its minter's nonces are this file's alone) and the
 * real Postgres.
 */

const world = useWorld();
let chain: LocalChain;
let contracts: DeployedDemoContracts;
let reader: ChainReader;
let check: ChainCheck;
/** Nothing listens there: every read fails at once, as with an RPC that is down. */
let silent: ChainCheck;

beforeAll(async () => {
  chain = await startAnvil({ blockTime: 0 });
  contracts = await deployDemoContracts(chain, { name: 'Nebula Pass', symbol: 'NEB' });
  reader = createChainReader([{ name: 'anvil', rpcUrl: chain.rpcUrl }], { latestCacheMs: 0 });
  check = { reader, timeoutMs: 10_000 };
  silent = { reader: createChainReader([{ name: 'anvil', rpcUrl: 'http://127.0.0.1:9' }], { retries: 0, timeoutMs: 500 }), timeoutMs: 2_000 };
});
afterAll(async () => {
  await reader?.close();
  await silent?.reader?.close();
  await chain?.stop();
});

const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address;
let nextTokenId = 1n;
const tokenIds = (n: number) => Array.from({ length: n }, () => nextTokenId++);

/** A user with these verified wallets on anvil (and unverified ones, which never count). */
async function holder(verified: Address[], unverified: Address[] = []) {
  return world.user({
    wallets: [...verified.map((address) => ({ chain: 'anvil', address, verified: true })), ...unverified.map((address) => ({ chain: 'anvil', address, verified: false }))],
  });
}

const enter = (raffleId: string, userId: string, chainCheck: ChainCheck = check) =>
  enterRaffle(world.db, { raffle: { raffleId }, actor: userPrincipal(userId), source: 'api', chain: chainCheck, beacon: world.beacon.chain });

const requirement = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: `r${Math.random().toString(36).slice(2, 8)}`,
  label: 'On-chain',
  ...extra,
  type: params.standard ? 'token_balance' : 'native_balance',
  params: { chain: 'anvil', ...params },
});

async function refusal(promise: Promise<unknown>) {
  const error = (await promise.then(() => null, (e: unknown) => e)) as { code?: string; failedRequirements?: unknown[] } | null;
  expect(error?.code).toBe('REQUIREMENTS_NOT_MET');
  return error!.failedRequirements!;
}

const ownerView = (entry: { ownerJson: string }) => JSON.parse(entry.ownerJson) as { status: string; requirements: { passed: boolean; detail?: string }[] };

describe('each requirement type at its threshold, over one and several verified wallets', () => {
  it('erc20: the sum over verified wallets; an unverified wallet never counts', async () => {
    const raffle = await world.openRaffle({ requirements: [requirement({ contract: contracts.erc20, standard: 'erc20', min: '1000' }, { label: 'Holds 1,000 NEB' })] as never });
    const [short, exact, a, b, v, u] = [fresh(), fresh(), fresh(), fresh(), fresh(), fresh()];
    await mintDemoHoldings(chain, contracts, {
      erc20: [{ to: short, amount: 999n }, { to: exact, amount: 1000n }, { to: a, amount: 400n }, { to: b, amount: 600n }, { to: v, amount: 400n }, { to: u, amount: 600n }],
    });
    expect(await refusal(enter(raffle.id, (await holder([short])).id))).toEqual([
      { type: 'token_balance', label: 'Holds 1,000 NEB', detail: 'holds 999 base units of Nebula Pass Token, needs 1000' },
    ]);
    const one = await enter(raffle.id, (await holder([exact])).id);
    expect(ownerView(one.entry)).toMatchObject({ status: 'valid', requirements: [{ passed: true, detail: 'holds 1000 base units of Nebula Pass Token, needs 1000' }] });
    expect((await enter(raffle.id, (await holder([a, b])).id)).entry.status).toBe('valid');
    await refusal(enter(raffle.id, (await holder([v], [u])).id));
  });

  it('erc721: one pass short fails, two wallets holding one each pass', async () => {
    const raffle = await world.openRaffle({ requirements: [requirement({ contract: contracts.erc721, standard: 'erc721', min: '2' }, { label: 'Holds 2 passes' })] as never });
    const [one, a, b] = [fresh(), fresh(), fresh()];
    const [t1, t2, t3] = tokenIds(3);
    await mintDemoHoldings(chain, contracts, { erc721: [{ to: one, tokenId: t1! }, { to: a, tokenId: t2! }, { to: b, tokenId: t3! }] });
    expect(await refusal(enter(raffle.id, (await holder([one])).id))).toEqual([{ type: 'token_balance', label: 'Holds 2 passes', detail: 'holds 1 Nebula Pass, needs 2' }]);
    expect((await enter(raffle.id, (await holder([a, b])).id)).entry.status).toBe('valid');
  });

  it('erc1155: only the named token id counts', async () => {
    const raffle = await world.openRaffle({ requirements: [requirement({ contract: contracts.erc1155, standard: 'erc1155', tokenId: '7', min: '3' })] as never });
    const [other, a, b] = [fresh(), fresh(), fresh()];
    await mintDemoHoldings(chain, contracts, {
      erc1155: [{ to: other, id: 7n, amount: 2n }, { to: other, id: 8n, amount: 5n }, { to: a, id: 7n, amount: 2n }, { to: b, id: 7n, amount: 1n }],
    });
    const failed = await refusal(enter(raffle.id, (await holder([other])).id));
    expect(failed).toMatchObject([{ detail: 'holds 2 of token id 7, needs 3' }]);
    expect((await enter(raffle.id, (await holder([a, b])).id)).entry.status).toBe('valid');
  });

  it('native: wei summed over wallets', async () => {
    const raffle = await world.openRaffle({ requirements: [requirement({ min: '1000000000000000000' }, { label: 'Holds 1 ETH' })] as never });
    const [poor, a, b] = [fresh(), fresh(), fresh()];
    await setNativeBalance(chain, poor, 999_999_999_999_999_999n);
    await setNativeBalance(chain, a, 600_000_000_000_000_000n);
    await setNativeBalance(chain, b, 400_000_000_000_000_000n);
    const failed = await refusal(enter(raffle.id, (await holder([poor])).id));
    expect(failed).toMatchObject([{ type: 'native_balance', label: 'Holds 1 ETH' }]);
    expect((failed[0] as { detail: string }).detail).toMatch(/^holds 0\.99+ ETH, needs 1 ETH$/);
    expect((await enter(raffle.id, (await holder([a, b])).id)).entry.status).toBe('valid');
  });

  it('an optional on-chain requirement adds its multiplier when met, and refuses nothing when not', async () => {
    const raffle = await world.openRaffle({
      requirements: [
        requirement({ contract: contracts.erc721, standard: 'erc721', min: '1' }, { label: 'A pass' }),
        requirement({ contract: contracts.erc20, standard: 'erc20', min: '50', optional: true, multiplier: 3 }, { label: 'Bonus: 50 NEB' }),
      ] as never,
    });
    const [both, passOnly] = [fresh(), fresh()];
    const [t1, t2] = tokenIds(2);
    await mintDemoHoldings(chain, contracts, { erc721: [{ to: both, tokenId: t1! }, { to: passOnly, tokenId: t2! }], erc20: [{ to: both, amount: 50n }] });
    const bonus = await enter(raffle.id, (await holder([both])).id);
    expect(bonus.entry).toMatchObject({ status: 'valid', entryWeight: '3.000000' });
    const plain = await enter(raffle.id, (await holder([passOnly])).id);
    expect(plain.entry).toMatchObject({ status: 'valid', entryWeight: '1.000000' });
    expect(ownerView(plain.entry).requirements).toEqual([
      { type: 'token_balance', label: 'A pass', passed: true, detail: 'holds 1 Nebula Pass, needs 1' },
      { type: 'token_balance', label: 'Bonus: 50 NEB', passed: false, detail: 'holds 0 base units of Nebula Pass Token, needs 50' },
    ]);
  });

  it('keeps the balances, the block and the wallets in the private evidence, and never in what the entrant sees', async () => {
    const raffle = await world.openRaffle({ requirements: [requirement({ contract: contracts.erc721, standard: 'erc721', min: '1' })] as never });
    const wallet = fresh();
    await mintDemoHoldings(chain, contracts, { erc721: [{ to: wallet, tokenId: tokenIds(1)[0]! }] });
    const { entry } = await enter(raffle.id, (await holder([wallet])).id);
    expect(entry.ownerJson.toLowerCase()).not.toContain(wallet.slice(2).toLowerCase());
    expect(entry.workspaceJson.toLowerCase()).not.toContain(wallet.slice(2).toLowerCase());
    const [stored] = await world.db.select().from(schema.entryRequirementEvaluations).where(eq(schema.entryRequirementEvaluations.entryId, entry.id));
    expect(stored!.evidence).toMatchObject({ chain: 'anvil', total: '1', min: '1', wallets: [{ address: wallet.toLowerCase(), balance: '1' }] });
    expect(stored!.evidence.block).toMatch(/^(latest|\d+)$/);
  });
});

describe('pending entries, settled once the chain answers', () => {
  const passRequirement = () => [requirement({ contract: contracts.erc721, standard: 'erc721', min: '1' }, { label: 'A pass' })] as never;

  it('a silent chain: 201-style pending entry with no spot; the settle pass makes holders valid and the others invalid, each with entry.updated', async () => {
    const raffle = await world.openRaffle({ requirements: passRequirement() });
    const [has, hasNot] = [fresh(), fresh()];
    await mintDemoHoldings(chain, contracts, { erc721: [{ to: has, tokenId: tokenIds(1)[0]! }] });
    const [holderUser, other] = [await holder([has]), await holder([hasNot])];
    const pending = [await enter(raffle.id, holderUser.id, silent), await enter(raffle.id, other.id, silent)];
    for (const { entry } of pending) {
      expect(ownerView(entry)).toMatchObject({ status: 'pending', requirements: [{ passed: false, detail: NOT_EVALUATED_DETAIL }] });
    }
    // Still silent: nothing changes.
    expect(await settlePendingEntries({ db: world.db, chain: silent, beacon: world.beacon.chain })).toMatchObject({ chainSilent: true, valid: 0, invalid: 0 });
    await settleAll(check);
    const after = await entriesOf(raffle.id);
    expect(after.map((e) => [e.userId, e.status])).toEqual(
      expect.arrayContaining([
        [holderUser.id, 'valid'],
        [other.id, 'invalid'],
      ]),
    );
    expect(after.find((e) => e.userId === other.id)!.statusReason).toBe('Requirements not met: A pass');
    const settledView = JSON.parse(after.find((e) => e.userId === holderUser.id)!.ownerJson);
    expect(settledView.requirements).toEqual([{ type: 'token_balance', label: 'A pass', passed: true, detail: 'holds 1 Nebula Pass, needs 1' }]);
    const updates = (await world.events()).filter((e) => e.type === 'entry.updated' && pending.some((p) => p.entry.id === e.payload.data.id));
    expect(updates.map((e) => e.payload.data.status).sort()).toEqual(['invalid', 'valid']);
  });

  it('FCFS: pending entries take the positions left in arrival order once settled, the last closes the raffle, the rest are invalid', async () => {
    const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: 2, requirements: passRequirement() });
    const wallets = [fresh(), fresh(), fresh(), fresh()];
    await mintDemoHoldings(chain, contracts, { erc721: wallets.map((to) => ({ to, tokenId: tokenIds(1)[0]! })) });
    const users = [];
    for (const w of wallets) users.push(await holder([w]));
    for (const u of users) expect((await enter(raffle.id, u.id, silent)).entry.status).toBe('pending');
    await settleAll(check);
    const after = await entriesOf(raffle.id);
    expect(after.map((e) => e.status)).toEqual(['valid', 'valid', 'invalid', 'invalid']);
    expect(after[2]!.statusReason).toMatch(/spots were taken/);
    const wins = await world.db.select().from(schema.wins).where(eq(schema.wins.raffleId, raffle.id));
    expect(wins.map((w) => [w.entryId, w.position]).sort()).toEqual([
      [after[0]!.id, 1],
      [after[1]!.id, 2],
    ].sort());
    const [row] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffle.id));
    expect(row).toMatchObject({ status: 'closed' });
    const spots = await world.db.select().from(schema.fcfsSpots).where(eq(schema.fcfsSpots.raffleId, raffle.id));
    expect(spots.map((s) => [s.position, s.entryId]).sort()).toEqual([[1, after[0]!.id], [2, after[1]!.id]].sort());
  });

  it('two resolvers at once never settle one entry twice', async () => {
    const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: 15, requirements: passRequirement() });
    const wallets = Array.from({ length: 30 }, fresh);
    await mintDemoHoldings(chain, contracts, { erc721: wallets.map((to) => ({ to, tokenId: tokenIds(1)[0]! })) });
    const users = await Promise.all(wallets.map((w) => holder([w])));
    await Promise.all(users.map((u) => enter(raffle.id, u.id, silent)));
    const passes = async () => {
      for (;;) {
        // A pass that waited too long for the raffle's lock gives up (lock_timeout) and is run again, as the plugin does.
        const pass = await settlePendingEntries({ db: world.db, chain: check, batchSize: 4, beacon: world.beacon.chain }).catch((error: { code?: string }) => {
          if (error.code === '55P03' || (error as { cause?: { code?: string } }).cause?.code === '55P03') return null;
          throw error;
        });
        if (pass?.claimed === 0) return;
      }
    };
    await Promise.all([passes(), passes()]);
    const after = await entriesOf(raffle.id);
    expect(after.filter((e) => e.status === 'valid')).toHaveLength(15);
    expect(after.filter((e) => e.status === 'invalid')).toHaveLength(15);
    const ids = after.map((e) => e.id);
    const updates = (await world.events()).filter((e) => e.type === 'entry.updated' && ids.includes(e.payload.data.id as string));
    // One workspace event per entry: none settled twice.
    expect(updates).toHaveLength(30);
    const wins = await world.db.select().from(schema.wins).where(inArray(schema.wins.entryId, ids));
    expect(new Set(wins.map((w) => w.position)).size).toBe(15);
    expect(wins).toHaveLength(15);
  });
});

async function settleAll(chainCheck: ChainCheck) {
  for (;;) {
    const pass = await settlePendingEntries({ db: world.db, chain: chainCheck, beacon: world.beacon.chain });
    expect(pass.chainSilent).toBe(false);
    if (pass.claimed === 0) return;
  }
}

async function entriesOf(raffleId: string) {
  return world.db.select().from(schema.entries).where(eq(schema.entries.raffleId, raffleId)).orderBy(schema.entries.id);
}
