import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { findAllowlistRaffle, schema } from '@raffle/db';
import { verifyAllowlistProof } from '@raffle/sdk';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { privateKeyToAddress } from 'viem/accounts';
import {
  allowlistLeafPage,
  allowlistProofOf,
  allowlistView,
  closeRaffle,
  disqualifyWin,
  drawRaffle,
  enterRaffle,
  finalizeRaffle,
  nameAllowlistWallet,
  publishDueAllowlists,
  rerollWin,
  systemClock,
  userPrincipal,
  type Clock,
  type RaffleRecord,
} from '../src/index.js';
import { createCursorCodec } from '../src/pagination/codec.js';
import { useWorld } from './support/world.js';

const world = useWorld();
const cursors = createCursorCodec('allowlist-test-secret-0123456789abcdef', 'api');
const walletOf = (i: number, salt: string) => privateKeyToAddress(`0x${(BigInt(i + 1) * 7919n + BigInt(`0x${salt}`)).toString(16).padStart(64, '0')}`);

async function finalizedRaffle(spots: number, entrants: number, body: Record<string, unknown> = {}) {
  const salt = Math.floor(Math.random() * 1e9).toString(16);
  const raffle = await world.openRaffle({ spots, chain: 'ethereum', ...body });
  const users = [];
  for (let i = 0; i < entrants; i++) {
    const address = walletOf(i, salt);
    const user = await world.user({ wallets: [{ chain: 'ethereum', address, verified: true }] });
    await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'api' });
    users.push({ id: user.id, address });
  }
  await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
  await drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id, workspaceId: world.workspace.id });
  return { raffle, users };
}

const finalize = (raffle: RaffleRecord, clock?: Clock) => finalizeRaffle(world.db, { actor: world.team, raffleId: raffle.id, workspaceId: world.workspace.id, clock });
const allowlistRaffle = async (id: string) => (await findAllowlistRaffle(world.db, id))!;
const liveWins = (raffleId: string) => world.db.select().from(schema.wins).where(and(eq(schema.wins.raffleId, raffleId), eq(schema.wins.status, 'finalized')));

describe('allowlist versions', () => {
  it('is queued at finalize, published by the builder as version 1, and agrees with an independently built StandardMerkleTree', async () => {
    const { raffle, users } = await finalizedRaffle(5, 9, { settings: { allowlistQuantity: 3 } });
    await finalize(raffle);
    expect((await allowlistView(world.db, await allowlistRaffle(raffle.id), new Date())).status).toBe('building');

    expect(await publishDueAllowlists(world.db, { clock: systemClock })).toBeGreaterThanOrEqual(1);
    const view = await allowlistView(world.db, await allowlistRaffle(raffle.id), new Date());
    expect(view.status).toBe('published');
    expect(view.current).toMatchObject({ version: 1, count: 5, unlistedWinners: 0, reason: 'finalized' });

    // The builder refreshed the leaves' statistics (the server runs no autovacuum): without them the
    // planner takes a big version for a few rows and reads all of it for every page.
    const [stats] = await world.db.execute<{ estimated: number; stored: number }>(
      sql`select (select reltuples from pg_class where oid = 'raffle_allowlist_leaves'::regclass)::int as estimated, (select count(*) from raffle_allowlist_leaves)::int as stored`,
    );
    expect(stats!.estimated).toBe(stats!.stored);

    const winners = await liveWins(raffle.id);
    const independent = StandardMerkleTree.of(winners.map((w) => [w.walletSnapshot!, '3']), ['address', 'uint256']);
    expect(view.current!.root).toBe(independent.root);

    const page = await allowlistLeafPage(world.db, await allowlistRaffle(raffle.id), { cursors, limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.pagination.hasMore).toBe(true);
    const next = await allowlistLeafPage(world.db, await allowlistRaffle(raffle.id), { cursors, limit: 10, cursor: page.pagination.nextCursor! });
    const leaves = [...page.data, ...next.data];
    expect(leaves).toHaveLength(5);
    for (const leaf of leaves) {
      const [, expected] = [...independent.entries()].find(([, v]) => v[0]!.toLowerCase() === leaf.address.toLowerCase())!;
      expect(leaf.proof).toEqual(independent.getProof(expected));
      expect(verifyAllowlistProof({ root: view.current!.root, address: leaf.address, quantity: BigInt(leaf.quantity), proof: leaf.proof })).toBe(true);
    }

    const winner = users.find((u) => u.id === winners[0]!.userId)!;
    const own = await allowlistProofOf(world.db, await allowlistRaffle(raffle.id), winner.id);
    expect(own.address.toLowerCase()).toBe(winner.address.toLowerCase());
    expect(own.quantity).toBe('3');
    const loser = users.find((u) => !winners.some((w) => w.userId === u.id))!;
    await expect(allowlistProofOf(world.db, await allowlistRaffle(raffle.id), loser.id)).rejects.toMatchObject({ code: 'NOT_ON_ALLOWLIST' });

    const events = (await world.events()).filter((e) => e.type === 'raffle.allowlist_published' && e.payload.data.raffleId === raffle.id);
    expect(events.map((e) => e.payload.data)).toEqual([expect.objectContaining({ version: 1, root: view.current!.root, count: 5, leafEncoding: ['address', 'uint256'] })]);
  });

  it('publishes version 2 after a disqualification and reroll: the replacement is on it, the replaced winner is not, version 1 is kept', async () => {
    const { raffle, users } = await finalizedRaffle(3, 6);
    await finalize(raffle);
    await publishDueAllowlists(world.db, { clock: systemClock });
    const v1 = (await allowlistView(world.db, await allowlistRaffle(raffle.id), new Date())).current!;

    const [replaced] = await liveWins(raffle.id);
    await disqualifyWin(world.db, { actor: world.team, workspaceId: world.workspace.id, raffleId: raffle.id, winId: replaced!.id, reason: 'bot' });
    const { replacement } = await rerollWin(world.db, { actor: world.team, workspaceId: world.workspace.id, raffleId: raffle.id, winId: replaced!.id });
    expect(await publishDueAllowlists(world.db, { clock: systemClock })).toBe(1);

    const view = await allowlistView(world.db, await allowlistRaffle(raffle.id), new Date());
    expect(view.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(view.versions[1]).toEqual(v1);
    expect(view.current).toMatchObject({ version: 2, count: 3, reason: 'winners_changed' });
    expect(view.current!.root).not.toBe(v1.root);

    const newcomer = await allowlistProofOf(world.db, await allowlistRaffle(raffle.id), replacement.userId);
    expect(verifyAllowlistProof({ root: view.current!.root, address: newcomer.address, quantity: 1n, proof: newcomer.proof })).toBe(true);
    await expect(allowlistProofOf(world.db, await allowlistRaffle(raffle.id), replaced!.userId)).rejects.toMatchObject({ code: 'NOT_ON_ALLOWLIST' });
    const oldLeaf = (await allowlistLeafPage(world.db, await allowlistRaffle(raffle.id), { cursors, version: 1, address: users.find((u) => u.id === replaced!.userId)!.address })).data[0]!;
    expect(verifyAllowlistProof({ root: v1.root, address: oldLeaf.address, quantity: 1n, proof: oldLeaf.proof })).toBe(true);
    expect(verifyAllowlistProof({ root: view.current!.root, address: oldLeaf.address, quantity: 1n, proof: oldLeaf.proof })).toBe(false);

    // Nothing changed since: another pass publishes nothing.
    expect(await publishDueAllowlists(world.db, { clock: systemClock })).toBe(0);
  });

  it('waits for the wallet deadline, lets winners name one of their verified wallets until then, and builds after it', async () => {
    let now = new Date();
    const clock: Clock = { now: () => now };
    const deadline = new Date(now.getTime() + 3_600_000).toISOString();
    const { raffle } = await finalizedRaffle(2, 3, { settings: { walletDeadline: deadline } });
    await finalize(raffle, clock);
    const row = await allowlistRaffle(raffle.id);
    expect((await allowlistView(world.db, row, now)).status).toBe('awaiting_wallets');
    expect(await publishDueAllowlists(world.db, { clock })).toBe(0);

    const [win] = await liveWins(raffle.id);
    const other = privateKeyToAddress(`0x${'ab'.repeat(32)}`);
    await expect(nameAllowlistWallet(world.db, { raffle: row, userId: win!.userId, address: other, now })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await world.db.insert(schema.userWallets).values({ userId: win!.userId, chain: 'ethereum', address: other, verified: true });
    await nameAllowlistWallet(world.db, { raffle: row, userId: win!.userId, address: other.toLowerCase(), now });

    now = new Date(Date.parse(deadline) + 1000);
    await expect(nameAllowlistWallet(world.db, { raffle: row, userId: win!.userId, address: other, now })).rejects.toMatchObject({ code: 'WALLET_NAMING_CLOSED' });
    expect(await publishDueAllowlists(world.db, { clock })).toBe(1);
    const proof = await allowlistProofOf(world.db, row, win!.userId);
    expect(proof.address).toBe(other);
  });

  it('refuses a wallet deadline on a raffle that is no allowlist, or one before entries close', async () => {
    const endsAt = new Date(Date.now() + 86_400_000).toISOString();
    await expect(world.raffle({ allocationType: 'airdrop', settings: { walletDeadline: new Date(Date.now() + 2 * 86_400_000).toISOString() } })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('settings.walletDeadline is for allowlist raffles'),
    });
    await expect(world.raffle({ endsAt, settings: { walletDeadline: endsAt } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('after endsAt') });
    const kept = await world.raffle({ endsAt, settings: { walletDeadline: '2099-01-01T01:00:00+01:00' } });
    expect(kept.settings.walletDeadline).toBe('2099-01-01T00:00:00.000Z');
  });
});
