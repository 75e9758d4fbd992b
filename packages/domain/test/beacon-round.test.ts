import { QUICKNET, roundAt, type BeaconChain } from '@raffle/beacon';
import { schema } from '@raffle/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  beaconRoundAtClose,
  cancelRaffle,
  closeRaffle,
  enterRaffle,
  manualClock,
  publishRaffle,
  runDueTransitions,
  userPrincipal,
} from '../src/index.js';
import { useWorld } from './support/world.js';

// A chain of its own (not QUICKNET, the default): a close that ignored the chain it is given
// would store quicknet's round and hash, and these tests would see it.
const GENESIS = Date.parse('2031-01-01T00:00:00Z') / 1000;
const CHAIN: BeaconChain = { ...QUICKNET, chainHash: 'ab'.repeat(32), period: 3, genesisTime: GENESIS };
const secondsAfterGenesis = (s: number) => new Date((GENESIS + s) * 1000);

// The scheduler moves every due raffle of its database: the file's world has one of its own.
const world = useWorld();

const row = async (id: string) => (await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, id)))[0]!;
const closedEvent = async (id: string) => (await world.events()).find((e) => e.type === 'raffle.closed' && e.payload.data.id === id);

describe('beaconRoundAtClose', () => {
  it('is the round current at the close, plus 2, on the chain given', () => {
    // Round 1 starts at genesis; round 4 at +9 s, so a close at +9 s draws with round 6.
    expect(beaconRoundAtClose(CHAIN, secondsAfterGenesis(9))).toBe(6);
    // A moment before +9 s is still round 3.
    expect(beaconRoundAtClose(CHAIN, new Date((GENESIS + 9) * 1000 - 1))).toBe(5);
    expect(beaconRoundAtClose({ ...CHAIN, period: 1 }, secondsAfterGenesis(9))).toBe(12);
  });

  it('names a round due at least one period after the close, and less than two', () => {
    for (const offsetMs of [0, 1, 1499, 2999]) {
      const closedAt = new Date((GENESIS + 300) * 1000 + offsetMs);
      const due = GENESIS + (beaconRoundAtClose(CHAIN, closedAt) - 1) * CHAIN.period;
      const after = due - closedAt.getTime() / 1000;
      expect(after).toBeGreaterThan(CHAIN.period - 0.001);
      expect(after).toBeLessThanOrEqual(2 * CHAIN.period);
    }
  });
});

describe('every close fixes the beacon round, on the chain it is given', () => {
  it('by hand: the round at closedAt plus 2 and the chain hash are stored, and the raffle.closed event carries the round', async () => {
    const clock = manualClock(secondsAfterGenesis(600));
    const raffle = await world.openRaffle({}, clock);
    expect(raffle.beaconRound).toBeNull();
    expect(JSON.parse(raffle.workspaceItemJson).beaconRound).toBeNull();
    clock.set(secondsAfterGenesis(1000.5));
    const closed = await closeRaffle(world.db, { actor: world.team, raffleId: raffle.id, clock, beacon: CHAIN });
    expect(closed.beaconRound).toBe(roundAt(CHAIN, GENESIS + 1000) + 2);
    expect(closed.beaconChainHash).toBe(CHAIN.chainHash);
    expect(JSON.parse(closed.workspaceItemJson).beaconRound).toBe(closed.beaconRound);
    expect(JSON.parse(closed.publicItemJson).beaconRound).toBeUndefined();
    expect((await closedEvent(raffle.id))!.payload.data.beaconRound).toBe(closed.beaconRound);
  });

  it('by schedule: the scheduler closes at its clock (endsAt plus its lag) on the chain it runs with', async () => {
    const clock = manualClock(secondsAfterGenesis(2000));
    const raffle = await world.openRaffle({ endsAt: secondsAfterGenesis(2100).toISOString() }, clock);
    clock.set(secondsAfterGenesis(2107));
    const pass = await runDueTransitions(world.db, { clock, beacon: CHAIN });
    expect(pass.closed).toBeGreaterThanOrEqual(1);
    const closed = await row(raffle.id);
    expect(closed.status).toBe('closed');
    // Closed at 2107 s, not at endsAt: the round must be unknown when entries actually stop.
    expect(closed.beaconRound).toBe(roundAt(CHAIN, GENESIS + 2107) + 2);
    expect(closed.beaconChainHash).toBe(CHAIN.chainHash);
    expect((await closedEvent(raffle.id))!.payload.data.beaconRound).toBe(closed.beaconRound);
  });

  it('by the entry that fills a first-come raffle: the entrant closes it, on the chain the service pins', async () => {
    const clock = manualClock(secondsAfterGenesis(3000));
    const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: 1 }, clock);
    clock.set(secondsAfterGenesis(3010));
    const entrant = await world.user();
    const entered = await enterRaffle(world.db, { raffle: { slug: raffle.slug }, actor: userPrincipal(entrant.id), source: 'api', clock, beacon: CHAIN });
    expect(entered.raffle.status).toBe('closed');
    expect(entered.raffle.beaconRound).toBe(roundAt(CHAIN, GENESIS + 3010) + 2);
    expect((await row(raffle.id)).beaconChainHash).toBe(CHAIN.chainHash);
    expect((await closedEvent(raffle.id))!.payload.data.beaconRound).toBe(entered.raffle.beaconRound);
  });

  it('a cancellation fixes no round', async () => {
    const clock = manualClock(secondsAfterGenesis(4000));
    const raffle = await world.openRaffle({}, clock);
    const cancelled = await cancelRaffle(world.db, { actor: world.team, raffleId: raffle.id, clock, beacon: CHAIN });
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.beaconRound).toBeNull();
    expect(cancelled.beaconChainHash).toBeNull();
    expect(JSON.parse(cancelled.workspaceItemJson).beaconRound).toBeNull();
  });

  it('a close given no chain pins quicknet, the BEACON_CHAIN default', async () => {
    const draft = await world.raffle();
    const opened = await publishRaffle(world.db, { actor: world.team, raffleId: draft.id });
    const closed = await closeRaffle(world.db, { actor: world.team, raffleId: opened.id });
    expect(closed.beaconChainHash).toBe(QUICKNET.chainHash);
    expect(closed.beaconRound).toBe(beaconRoundAtClose(QUICKNET, closed.closedAt!));
  });
});
