import { describe, expect, it } from 'vitest';
import { findDrawSnapshot, schema } from '@raffle/db';
import { beaconMixedSeed, parseEntryLines, rankEntries, type DrawProof } from '@raffle/sdk';
import { beaconDrawProblems } from '@raffle/service-kit/testing';
import { asc, eq } from 'drizzle-orm';
import {
  closeRaffle,
  disqualifyWin,
  drawRaffle,
  enterRaffle,
  finalizeRaffle,
  rerollWin,
  setWinDelivery,
  userPrincipal,
  type RaffleRecord,
} from '../src/index.js';
import { useWorld } from './support/world.js';

const world = useWorld();

async function withEntrants(raffle: RaffleRecord, n: number) {
  const entries = [];
  for (let i = 0; i < n; i++) {
    const user = await world.user({ wallets: [{ chain: 'ethereum', address: `0x${i.toString(16).padStart(8, '0')}-${raffle.id}`, verified: true }] });
    entries.push((await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'api' })).entry);
  }
  return entries;
}

const winsOf = (raffleId: string) =>
  world.db.select().from(schema.wins).where(eq(schema.wins.raffleId, raffleId)).orderBy(asc(schema.wins.position), asc(schema.wins.selectedAt));

async function proofOf(raffleId: string): Promise<DrawProof> {
  const [raffle] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffleId));
  const snapshot = await findDrawSnapshot(world.db, raffleId);
  const drawWins = (await winsOf(raffleId)).filter((w) => w.source === 'draw');
  return {
    algorithm: snapshot!.algorithm,
    closedAt: raffle!.closedAt!.toISOString(),
    ...(snapshot!.beacon ? { beacon: snapshot!.beacon } : {}),
    drawCommitment: raffle!.drawCommitment!,
    seed: raffle!.drawSeed!,
    entriesDigest: raffle!.entriesDigest!,
    spots: raffle!.spots,
    entries: parseEntryLines(snapshot!.entryLines),
    winners: drawWins.map((w) => ({ entryId: w.entryId, position: w.position })),
  };
}

const ws = () => world.workspace.id;

/** Whether the proof reproduces as a beacon draw (its round signed by its chain, the commitment, the digest, the ranking). */
const reproduces = (proof: DrawProof): boolean => beaconDrawProblems(proof).length === 0;

describe('weighted draw', () => {
  it('selects `spots` winners that reproduce from the published proof, keyed with the seed mixed with the beacon round', async () => {
    const raffle = await world.openRaffle({ spots: 4 });
    const entries = await withEntrants(raffle, 15);
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    const drawn = await drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id, workspaceId: ws() });
    expect(drawn.status).toBe('drawn');
    const proof = await proofOf(raffle.id);
    expect(proof.entries).toHaveLength(15);
    expect(proof.entries.map((e) => e.id)).toEqual(entries.map((e) => e.id).sort());
    expect(proof.winners.map((w) => w.position)).toEqual([1, 2, 3, 4]);
    expect(reproduces(proof)).toBe(true);

    const changedEntry = { ...proof, entries: proof.entries.map((e, i) => (i === 0 ? { ...e, userId: 'usr_SOMEONEELSE' } : e)) };
    expect(reproduces(changedEntry)).toBe(false);
    const reweighted = { ...proof, entries: proof.entries.map((e) => (e.id === proof.winners[3]!.entryId ? { ...e, weight: '0.000001' } : e)) };
    expect(reproduces(reweighted)).toBe(false);
    const reseeded = { ...proof, seed: 'ab'.repeat(32) };
    expect(reproduces(reseeded)).toBe(false);
    const otherRound = { ...proof, beacon: { ...proof.beacon!, round: proof.beacon!.round + 1 } };
    expect(reproduces(otherRound)).toBe(false);

    const winIds = new Set((await winsOf(raffle.id)).map((w) => w.id));
    const selected = (await world.events()).filter((e) => e.type === 'winner.selected' && winIds.has(e.payload.data.id as string));
    expect(selected).toHaveLength(4);
  });

  it('refuses to draw an entry whose line a proof could not carry unambiguously, and leaves the raffle closed', async () => {
    const raffle = await world.openRaffle({ spots: 2 });
    await withEntrants(raffle, 2);
    // An id with `:` and a newline: its line would read back as two entries.
    const odd = await world.user({ id: `usr_${raffle.id.slice(4)}:1\nent_X` });
    await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(odd.id), source: 'api' });
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    await expect(drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id })).rejects.toThrow(/has a userId .* a draw proof cannot carry: aborting the draw/);
    const [after] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffle.id));
    expect(after!.status).toBe('closed');
    expect(await winsOf(raffle.id)).toEqual([]);
  });

  it('weights from optional requirements reach the proof exactly as the ranking used them', async () => {
    const raffle = await world.openRaffle({
      spots: 3,
      requirements: [{ id: 'og', type: 'holds_role', label: 'OG bonus', params: { role: 'og', optional: true, multiplier: 2.5 } }],
    });
    const entries = [];
    for (let i = 0; i < 6; i++) {
      const user = await world.user();
      if (i % 2 === 0) await world.db.insert(schema.communityRoles).values({ workspaceId: world.workspace.id, userId: user.id, role: 'og' });
      entries.push((await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'api' })).entry);
    }
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    await drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id });
    const proof = await proofOf(raffle.id);
    expect(proof.entries.map((e) => e.weight).sort()).toEqual(['1', '1', '1', '2.5', '2.5', '2.5']);
    expect(reproduces(proof)).toBe(true);
    expect(entries).toHaveLength(6);
  });

  it('re-checks requirements at the draw: an entrant who lost the wallet is invalid and out of the draw', async () => {
    const raffle = await world.openRaffle({ spots: 10, requirements: [{ id: 'w', type: 'wallet_connected', label: 'Wallet', params: { chain: 'ethereum' } }] });
    const entries = await withEntrants(raffle, 3);
    await world.db.delete(schema.userWallets).where(eq(schema.userWallets.userId, entries[1]!.userId));
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    await drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id });
    const [lapsed] = await world.db.select().from(schema.entries).where(eq(schema.entries.id, entries[1]!.id));
    expect(lapsed).toMatchObject({ status: 'invalid', statusReason: 'Requirements not met: Wallet' });
    expect(JSON.parse(lapsed!.ownerJson).requirements).toEqual([{ type: 'wallet_connected', label: 'Wallet', passed: false }]);
    const proof = await proofOf(raffle.id);
    expect(proof.entries.map((e) => e.id)).not.toContain(entries[1]!.id);
    expect(proof.winners).toHaveLength(2);
    expect(reproduces(proof)).toBe(true);
  });

  it('leaves flagged duplicates out when the raffle says so', async () => {
    const raffle = await world.openRaffle({ spots: 10, chain: 'ethereum', settings: { excludeFlaggedDuplicates: true } });
    const shared = { chain: 'ethereum', address: `0xshared-${raffle.id}`, verified: true };
    const a = await world.user({ wallets: [shared] });
    const b = await world.user({ wallets: [shared] });
    const c = await world.user();
    for (const u of [a, b, c]) await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(u.id), source: 'web' });
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    await drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id });
    const proof = await proofOf(raffle.id);
    expect(proof.entries.map((e) => e.userId)).toEqual([c.id]);
  });

  it('rerolls take the next entries in the frozen draw order, then run out', async () => {
    const raffle = await world.openRaffle({ spots: 2 });
    await withEntrants(raffle, 4);
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    await drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id });
    const proof = await proofOf(raffle.id);
    const order = rankEntries(Buffer.from(beaconMixedSeed(Buffer.from(proof.seed, 'hex'), proof.beacon!)), proof.entries).map((e) => e.id);
    const target = (winId: string) => ({ actor: world.team, workspaceId: ws(), raffleId: raffle.id, winId });

    const [first] = await winsOf(raffle.id);
    await expect(rerollWin(world.db, target(first!.id))).rejects.toMatchObject({ code: 'WIN_CANNOT_REROLL' });
    await disqualifyWin(world.db, { ...target(first!.id), reason: 'Wallet flagged' });
    const { replaced, replacement } = await rerollWin(world.db, target(first!.id));
    expect(replaced.status).toBe('replaced');
    expect(replacement).toMatchObject({ position: 1, source: 'reroll', status: 'selected', entryId: order[2] });

    await disqualifyWin(world.db, { ...target(replacement.id), reason: 'No response' });
    expect((await rerollWin(world.db, target(replacement.id))).replacement.entryId).toBe(order[3]);
    const live = (await winsOf(raffle.id)).filter((w) => w.status === 'selected');
    await disqualifyWin(world.db, { ...target(live[0]!.id), reason: 'No response' });
    await expect(rerollWin(world.db, target(live[0]!.id))).rejects.toMatchObject({ code: 'NO_ELIGIBLE_ENTRIES' });

    const types = (await world.events()).filter((e) => e.type.startsWith('winner.')).map((e) => e.type);
    expect(types).toContain('winner.replaced');
  });
});

describe('other mechanics', () => {
  it('collection: every valid entry wins in arrival order, capped by spots at entry', async () => {
    const raffle = await world.openRaffle({ mechanic: 'collection', spots: 3 });
    const entries = await withEntrants(raffle, 3);
    const late = await world.user();
    await expect(enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(late.id), source: 'api' })).rejects.toMatchObject({ code: 'RAFFLE_FULL' });
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    await drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id });
    expect((await winsOf(raffle.id)).map((w) => w.entryId)).toEqual(entries.map((e) => e.id));
  });

  it('application: the team picks, in order; picks must be valid entries and fit the spots', async () => {
    const raffle = await world.openRaffle({ mechanic: 'application', spots: 2 });
    const entries = await withEntrants(raffle, 3);
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    const t = { actor: world.team, raffleId: raffle.id, workspaceId: ws() };
    await expect(drawRaffle(world.db, { ...t, rounds: world.beacon })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(drawRaffle(world.db, { rounds: world.beacon, ...t, selection: { entryIds: entries.map((e) => e.id) } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(drawRaffle(world.db, { rounds: world.beacon, ...t, selection: { entryIds: ['ent_nope'] } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await drawRaffle(world.db, { rounds: world.beacon, ...t, selection: { entryIds: [entries[2]!.id, entries[0]!.id] } });
    expect((await winsOf(raffle.id)).map((w) => [w.entryId, w.position, w.source])).toEqual([
      [entries[2]!.id, 1, 'manual'],
      [entries[0]!.id, 2, 'manual'],
    ]);
  });

  it('a weighted raffle refuses a hand-picked selection', async () => {
    const raffle = await world.openRaffle();
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    await expect(drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id, selection: { entryIds: ['ent_x'] } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('finalizing and delivery', () => {
  it('finalize makes every selected win final; delivery moves forward and stops at delivered', async () => {
    const raffle = await world.openRaffle({ spots: 2 });
    const entries = await withEntrants(raffle, 2);
    await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
    await drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id });
    await finalizeRaffle(world.db, { actor: world.team, raffleId: raffle.id });
    const wins = await winsOf(raffle.id);
    expect(wins.map((w) => w.status)).toEqual(['finalized', 'finalized']);
    const t = { actor: world.team, workspaceId: ws(), raffleId: raffle.id, winId: wins[0]!.id };
    const processing = await setWinDelivery(world.db, { ...t, deliveryStatus: 'processing' });
    expect(processing.deliveryStatus).toBe('processing');
    const delivered = await setWinDelivery(world.db, { ...t, deliveryStatus: 'delivered', deliveryNote: 'tx 0x1' });
    expect(delivered).toMatchObject({ deliveryStatus: 'delivered', deliveryNote: 'tx 0x1' });
    expect(delivered.deliveredAt).toBeInstanceOf(Date);
    expect(JSON.parse(delivered.winnerJson)).toMatchObject({ deliveryStatus: 'delivered', deliveredAt: delivered.deliveredAt!.toISOString() });
    await expect(setWinDelivery(world.db, { ...t, deliveryStatus: 'failed' })).rejects.toMatchObject({ code: 'WIN_CANNOT_UPDATE_DELIVERY' });
    const personal = (await world.events({ userId: wins[0]!.userId })).map((e) => e.type);
    expect(personal).toEqual(['entry.created', 'win.selected', 'win.finalized', 'win.delivery_updated', 'win.delivery_updated']);
    expect(entries).toHaveLength(2);
  });

  it('unknown wins are 404 WIN_NOT_FOUND', async () => {
    const raffle = await world.openRaffle();
    await expect(disqualifyWin(world.db, { actor: world.team, workspaceId: ws(), raffleId: raffle.id, winId: 'win_nope', reason: 'x' })).rejects.toMatchObject({
      code: 'WIN_NOT_FOUND',
      statusCode: 404,
    });
  });
});
