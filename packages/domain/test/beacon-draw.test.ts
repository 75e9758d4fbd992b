import { createHash, randomBytes } from 'node:crypto';
import { schema } from '@raffle/db';
import { beaconMixedSeed, DRAND_DRAW_ALGORITHM, DRAW_ALGORITHM, drawKey, randomnessOf, rankEntries, signRound, type DrawEntry } from '@raffle/sdk';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { closeRaffle, drawRaffle, enterRaffle, userPrincipal } from '../src/index.js';
import { useWorld } from './support/world.js';

const world = useWorld();

async function openWithEntrants(n: number) {
  const raffle = await world.openRaffle({ spots: 2 });
  for (let i = 0; i < n; i++) {
    const user = await world.user({ wallets: [{ chain: 'ethereum', address: `0x${i.toString(16).padStart(8, '0')}-${raffle.id}`, verified: true }] });
    await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'api' });
  }
  return raffle;
}

const snapshotOf = async (raffleId: string) => (await world.db.select().from(schema.raffleDrawSnapshots).where(eq(schema.raffleDrawSnapshots.raffleId, raffleId)))[0]!;

describe('the beacon draw', () => {
  it('mixes the raffle\'s round into the key and stores the round and its chain for the proof', async () => {
    const raffle = await openWithEntrants(5);
    const closed = await closeRaffle(world.db, { actor: world.team, raffleId: raffle.id, beacon: world.beacon.chain });
    await drawRaffle(world.db, { actor: world.team, raffleId: raffle.id, rounds: world.beacon });
    const snapshot = await snapshotOf(raffle.id);
    const signature = signRound(world.beacon.secretKey, closed.beaconRound!);
    const { chainHash, publicKey, period, genesisTime } = world.beacon.chain;
    expect(snapshot.algorithm).toBe(DRAND_DRAW_ALGORITHM);
    expect(snapshot.beacon).toEqual({ chainHash, publicKey, period, genesisTime, round: closed.beaconRound, signature, randomness: randomnessOf(signature) });
  });

  it('keeps es-hmac-sha256-v1 for a raffle closed before beacon rounds (no round stored), and asks no beacon', async () => {
    const raffle = await openWithEntrants(5);
    await closeRaffle(world.db, { actor: world.team, raffleId: raffle.id, beacon: world.beacon.chain });
    // What a raffle closed before migration 0009 looks like (migration 0020 leaves its algorithm unbound).
    await world.db.update(schema.raffles).set({ beaconRound: null, beaconChainHash: null, drawAlgorithm: null }).where(eq(schema.raffles.id, raffle.id));
    const unreachable = { chain: world.beacon.chain, fetchRound: () => Promise.reject(new Error('the beacon must not be asked')) };
    await drawRaffle(world.db, { actor: world.team, raffleId: raffle.id, rounds: unreachable });
    const snapshot = await snapshotOf(raffle.id);
    expect(snapshot.algorithm).toBe(DRAW_ALGORITHM);
    expect(snapshot.beacon).toBeNull();
  });

  it('binds a weighted raffle to the beacon draw at publish, and refuses to draw it with the seed alone', async () => {
    const raffle = await openWithEntrants(2);
    expect(raffle.drawAlgorithm).toBe(DRAND_DRAW_ALGORITHM);
    await closeRaffle(world.db, { actor: world.team, raffleId: raffle.id, beacon: world.beacon.chain });
    await world.db.update(schema.raffles).set({ beaconRound: null, beaconChainHash: null }).where(eq(schema.raffles.id, raffle.id));
    await expect(drawRaffle(world.db, { actor: world.team, raffleId: raffle.id, rounds: world.beacon })).rejects.toThrow(/published for es-hmac-sha256-drand-v1 and closed without a beacon round/);
    expect(await world.db.select().from(schema.raffleDrawSnapshots).where(eq(schema.raffleDrawSnapshots.raffleId, raffle.id))).toEqual([]);
  });

  it('refuses to draw a raffle closed on another chain than the one given', async () => {
    const raffle = await openWithEntrants(2);
    await closeRaffle(world.db, { actor: world.team, raffleId: raffle.id });
    await expect(drawRaffle(world.db, { actor: world.team, raffleId: raffle.id, rounds: world.beacon })).rejects.toThrow(/closed on beacon chain .* but this service pins/);
    const [row] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffle.id));
    expect(row!.status).toBe('closed');
  });
});

/**
 * The attack the beacon exists for (issue 24): an insider who knows the seed before the close
 * makes many entries and keeps (does not withdraw) only those whose HMAC(seed, id) ranks them
 * first. Under es-hmac-sha256-v1 they win every time; under es-hmac-sha256-drand-v1 the key
 * depends on a round published after the close, so their win rate is only their weight's share.
 */
describe('an insider who knows the seed before the close', () => {
  const RAFFLES = 200;
  const HONEST = 19;
  const id = (prefix: string) => `${prefix}_${randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`;

  /** One raffle: 19 honest entries of weight 1, and the insider's 1 kept entry (of 500 tried) that ranks first under the seed alone. */
  function playOne(): { v1Win: boolean; beaconWin: boolean } {
    const seed = randomBytes(32);
    const honest: DrawEntry[] = Array.from({ length: HONEST }, () => ({ id: id('ent'), userId: id('usr'), weight: '1' }));
    const insider = id('usr');
    const tried: DrawEntry[] = Array.from({ length: 500 }, () => ({ id: id('ent'), userId: insider, weight: '1' }));
    // Keeps the tried entry with the best seed-only key and withdraws the rest.
    const best = [...tried].sort((a, b) => drawKey(seed, b) - drawKey(seed, a))[0]!;
    const entries = [...honest, best];
    const v1Winner = rankEntries(seed, entries)[0]!;
    const round = 1 + Math.floor(Math.random() * 1e6);
    const randomness = createHash('sha256').update(randomBytes(48)).digest('hex');
    const key = Buffer.from(beaconMixedSeed(seed, { chainHash: 'ab'.repeat(32), round, randomness }));
    const beaconWinner = rankEntries(key, entries)[0]!;
    return { v1Win: v1Winner.userId === insider, beaconWin: beaconWinner.userId === insider };
  }

  it(`wins almost always under the seed alone, and only its weight's share (1 in 20) with the beacon, over ${RAFFLES} raffles`, () => {
    let v1Wins = 0;
    let beaconWins = 0;
    for (let i = 0; i < RAFFLES; i++) {
      const { v1Win, beaconWin } = playOne();
      v1Wins += Number(v1Win);
      beaconWins += Number(beaconWin);
    }
    // Seed alone: the best of 500 tries beats the 19 honest entries with probability 500/519 ≈ 96%.
    expect(v1Wins).toBeGreaterThan(RAFFLES * 0.9);
    // With the beacon: Binomial(200, 1/20), mean 10, sd ≈ 3.1; P(X ≥ 26) < 1e-5. Crafting buys nothing.
    expect(beaconWins).toBeLessThan(26);
  });
});
