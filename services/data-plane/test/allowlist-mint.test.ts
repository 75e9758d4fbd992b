import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { deployAllowlistMint, startAnvil, type LocalChain } from '@raffle/chain/local';
import { disqualifyWin, enterRaffle, liveWinsOf, publishDueAllowlists, rerollWin, systemClock, userPrincipal } from '@raffle/domain';
import type { Allowlist, AllowlistProof } from '@raffle/contracts';
import type { FastifyInstance } from 'fastify';
import { getAddress, keccak256, toHex, type Address, type LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowlistMintChain } from './support/allowlist-mint-chain.js';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';

/**
 * Issue 35 end to end: a finalized allowlist raffle of 300 winners among 320 entrants, each entrant
 * a wallet whose key this file derives, published by the builder and deployed as the root of an
 * AllowlistMint on anvil with the root the keyless public route shows. Every winner mints with the
 * proof the data plane serves them (GET /api/v1/raffles/{slug}/allowlist/proof, their personal
 * key); the contract refuses what is not on the list; a reroll after finalize publishes version 2,
 * whose root the owner sets on the contract, and then the newcomer mints while the replaced
 * winner's proof fails.
 */

const SPOTS = 300;
const ENTRANTS = 320;
const QUANTITY = 2n;

let db: TestDatabase;
let world: LifecycleWorld;
let app: FastifyInstance;
let chain: LocalChain;
let mint: ReturnType<typeof allowlistMintChain>;
let raffleId: string;
let slug: string;
/** Every entrant: their user id, their personal key's headers and the account of their one verified wallet on the raffle's chain. */
let entrants: { userId: string; headers: Record<string, string>; account: LocalAccount }[];
let firstRoot: string;

/** A private key fixed by the entrant's index: the test can sign as any of them. */
const entrantAccount = (i: number) => privateKeyToAccount(keccak256(toHex(`allowlist-mint e2e entrant ${i}`)));
/** The keyless public view of the raffle's allowlist. */
async function publicAllowlist(): Promise<Allowlist> {
  const res = await app.inject({ url: `/public/v1/raffles/${slug}/allowlist` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
/** What the data plane answers the entrant for their own proof: the proof, or 404 NOT_ON_ALLOWLIST. */
const askProof = (userId: string) => app.inject({ url: `/api/v1/raffles/${slug}/allowlist/proof`, headers: entrantOf(userId).headers });
async function proofOf(userId: string): Promise<AllowlistProof> {
  const res = await askProof(userId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
async function expectNotOnAllowlist(userId: string): Promise<void> {
  const res = await askProof(userId);
  expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'NOT_ON_ALLOWLIST' });
}
const entrantOf = (userId: string) => entrants.find((e) => e.userId === userId)!;
const finalizedWinners = async () => (await liveWinsOf(world.db, raffleId, ['finalized'])).map((win) => ({ win, ...entrantOf(win.userId) }));

/** StandardMerkleTree of (wallet, quantity) built here from the winners' wallets, as anyone could from the public list. */
const independentTree = (wallets: readonly Address[]) => StandardMerkleTree.of(wallets.map((w) => [w, QUANTITY.toString()]), ['address', 'uint256']);

beforeAll(async () => {
  chain = await startAnvil({ blockTime: 0 });
  db = await createTestDatabase();
  world = await createLifecycleWorld(db.database);
  app = await buildTestApp(db.database, db.url);

  const raffle = await world.open({ spots: SPOTS, chain: 'anvil', allocationType: 'allowlist_gtd', settings: { allowlistQuantity: Number(QUANTITY) } });
  raffleId = raffle.id;
  slug = raffle.slug;
  // All at once: each entry locks only its own wallet's and IP's signals, so none waits on another.
  entrants = await Promise.all(
    Array.from({ length: ENTRANTS }, async (_, i) => {
      const account = entrantAccount(i);
      const { user, headers } = await world.entrant({ wallets: [{ chain: 'anvil', address: account.address, verified: true }] });
      await enterRaffle(world.db, { raffle: { raffleId }, actor: userPrincipal(user.id), source: 'api' });
      return { userId: user.id, headers, account };
    }),
  );
  await world.close(raffleId);
  await world.draw(raffleId);
  await world.finalize(raffleId);
  expect(await publishDueAllowlists(world.db, { clock: systemClock })).toBe(1);

  const view = await publicAllowlist();
  expect(view).toMatchObject({ status: 'published', quantityPerWinner: Number(QUANTITY), leafEncoding: ['address', 'uint256'] });
  expect(view.current).toMatchObject({ version: 1, count: SPOTS, unlistedWinners: 0 });
  firstRoot = view.current!.root;
  mint = allowlistMintChain(chain, await deployAllowlistMint(chain, { name: 'Allowlist e2e', symbol: 'ALE2E', root: firstRoot as `0x${string}` }));
  await mint.fund(entrants.map((e) => e.account.address));
}, 120_000);

afterAll(async () => {
  await app?.close();
  await chain?.stop();
  await db?.drop();
});

describe('a finalized allowlist raffle of 300 winners, minted on anvil', () => {
  it('publishes the root an independently built StandardMerkleTree of the finalized winners has, and the contract holds it', async () => {
    const winners = await finalizedWinners();
    expect(winners).toHaveLength(SPOTS);
    // Each win is for the wallet its entry snapshotted: the entrant's one wallet on the raffle's chain.
    for (const { win, account } of winners) expect(getAddress(win.walletSnapshot!)).toBe(account.address);
    expect(independentTree(winners.map((w) => w.account.address)).root).toBe(firstRoot);
    expect(await mint.root()).toBe(firstRoot);
  });

  it("refuses a non-winner, a wrong quantity and another winner's proof (NotOnAllowlist), before anyone mints", async () => {
    const winners = await finalizedWinners();
    const [winner, other] = winners;
    const nonWinner = entrants.find((e) => !winners.some((w) => w.userId === e.userId))!;
    const served = await proofOf(winner!.userId);
    const othersProof = await proofOf(other!.userId);
    expect(served).toMatchObject({ address: winner!.account.address, quantity: QUANTITY.toString(), version: 1, root: firstRoot });
    await expectNotOnAllowlist(nonWinner.userId);

    expect(await mint.refusal(nonWinner.account, QUANTITY, served.proof)).toBe('NotOnAllowlist');
    expect(await mint.refusal(nonWinner.account, QUANTITY, [])).toBe('NotOnAllowlist');
    expect(await mint.refusal(winner!.account, QUANTITY - 1n, served.proof)).toBe('NotOnAllowlist');
    expect(await mint.refusal(winner!.account, QUANTITY + 1n, served.proof)).toBe('NotOnAllowlist');
    expect(await mint.refusal(winner!.account, QUANTITY, othersProof.proof)).toBe('NotOnAllowlist');
    // The served proof itself would mint: the refusals above are about what was changed.
    expect(await mint.refusal(winner!.account, QUANTITY, served.proof)).toBeUndefined();
  });

  it('mints every winner their quantity with their served proof (all but the one the team will disqualify), and refuses a second mint (AlreadyMinted)', async () => {
    const [toDisqualify, ...winners] = await finalizedWinners();
    const served = await Promise.all(winners.map((w) => proofOf(w.userId)));
    const independent = independentTree([toDisqualify!.account.address, ...winners.map((w) => w.account.address)]);
    for (const [i, proof] of served.entries()) expect(proof.proof, `winner ${i}`).toEqual(independent.getProof([winners[i]!.account.address, QUANTITY.toString()]));

    await mint.mintAll(winners.map((w, i) => ({ account: w.account, quantity: BigInt(served[i]!.quantity), proof: served[i]!.proof })));
    const balances = await Promise.all(winners.map((w) => mint.balanceOf(w.account.address)));
    expect(balances.every((b) => b === QUANTITY)).toBe(true);
    expect(await mint.totalMinted()).toBe(BigInt(winners.length) * QUANTITY);

    expect(await mint.refusal(winners[0]!.account, QUANTITY, served[0]!.proof)).toBe('AlreadyMinted');
    expect(await mint.refusal(winners.at(-1)!.account, QUANTITY, served.at(-1)!.proof)).toBe('AlreadyMinted');
  });

  it("after a disqualification and reroll: version 2's root set on the contract admits the newcomer, and the replaced winner's proof fails against it", async () => {
    const [replaced] = await finalizedWinners();
    const oldProof = await proofOf(replaced!.userId);
    const target = { actor: world.team, workspaceId: world.workspace.id, raffleId };
    await disqualifyWin(world.db, { ...target, winId: replaced!.win.id, reason: 'sybil cluster' });
    const { replacement } = await rerollWin(world.db, { ...target, winId: replaced!.win.id });
    expect(await publishDueAllowlists(world.db, { clock: systemClock })).toBe(1);

    const view = await publicAllowlist();
    expect(view.current).toMatchObject({ version: 2, count: SPOTS, reason: 'winners_changed' });
    expect(view.versions.map((v) => v.root)).toEqual([view.current!.root, firstRoot]);
    const winners = await finalizedWinners();
    expect(independentTree(winners.map((w) => w.account.address)).root).toBe(view.current!.root);
    expect(await mint.setRoot(view.current!.root)).toBe(2n);

    await expectNotOnAllowlist(replaced!.userId);
    expect(await mint.isAllowed(replaced!.account.address, QUANTITY, oldProof.proof)).toBe(false);
    expect(await mint.refusal(replaced!.account, QUANTITY, oldProof.proof)).toBe('NotOnAllowlist');

    const newcomer = entrantOf(replacement.userId);
    const served = await proofOf(newcomer.userId);
    expect(served).toMatchObject({ version: 2, root: view.current!.root, address: newcomer.account.address });
    await mint.mintAll([{ account: newcomer.account, quantity: BigInt(served.quantity), proof: served.proof }]);
    expect(await mint.balanceOf(newcomer.account.address)).toBe(QUANTITY);
    // Every winner of the list as it now stands holds their quantity, and nobody else holds any.
    expect(await mint.totalMinted()).toBe(BigInt(SPOTS) * QUANTITY);
    expect(await mint.balanceOf(replaced!.account.address)).toBe(0n);
    // A winner who minted under version 1 is on version 2 too, and still cannot mint again.
    const kept = winners.find((w) => w.userId !== newcomer.userId)!;
    expect(await mint.refusal(kept.account, QUANTITY, (await proofOf(kept.userId)).proof)).toBe('AlreadyMinted');
  });
});
