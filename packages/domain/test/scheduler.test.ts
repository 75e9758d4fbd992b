import { schema } from '@raffle/db';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enterRaffle, manualClock, publishRaffle, runDueTransitions, startRaffleScheduler, userPrincipal, type Clock } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createWorld, type World } from './support/world.js';

// The scheduler moves every due raffle of the database, so each test gets a database of its own.
let testDb: TestDatabase;
let world: World;

beforeEach(async () => {
  testDb = await createTestDatabase();
  world = await createWorld(testDb.database);
});
afterEach(() => testDb.drop());

const T0 = new Date('2031-03-01T12:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();

type Settings = { autoDraw?: boolean; autoFinalize?: boolean };
type Mechanic = 'raffle' | 'fcfs' | 'collection' | 'application';

/** A raffle published at T0 with the given deadlines (offsets from T0; startsAt omitted: open at publish). */
async function published(clock: Clock, args: { startsIn?: number; endsIn: number; settings?: Settings; mechanic?: Mechanic; spots?: number }) {
  const draft = await world.raffle(
    {
      mechanic: args.mechanic ?? 'raffle',
      spots: args.spots ?? 2,
      ...(args.startsIn === undefined ? {} : { startsAt: iso(args.startsIn) }),
      endsAt: iso(args.endsIn),
      settings: args.settings ?? {},
    },
    clock,
  );
  return publishRaffle(world.db, { actor: world.team, raffleId: draft.id, clock });
}

async function raffle(id: string) {
  const [row] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, id));
  return row!;
}

const status = async (id: string) => (await raffle(id)).status;

async function raffleEventTypes(id: string) {
  return (await world.events()).filter((e) => e.type.startsWith('raffle.') && e.payload.data.id === id).map((e) => e.type);
}

async function winsOf(id: string) {
  return world.db.select().from(schema.wins).where(eq(schema.wins.raffleId, id));
}

async function enter(raffleId: string, clock: Clock, count: number) {
  for (let i = 0; i < count; i++) {
    const user = await world.user();
    await enterRaffle(world.db, { raffle: { raffleId }, actor: userPrincipal(user.id), source: 'api', clock });
  }
}

describe('runDueTransitions', () => {
  it('reports each transition with how long after its deadline it ran (the scheduler lag metric)', async () => {
    const clock = manualClock(T0);
    const r = await published(clock, { startsIn: HOUR, endsIn: 2 * HOUR, settings: { autoDraw: true, autoFinalize: true } });
    const seen: [string, number][] = [];
    const onTransition = (name: string, lagMs: number) => seen.push([name, lagMs]);
    // Late by 90 s for the open; the close, draw and finalize then follow in the same pass at 2 h + 30 s.
    clock.set(at(HOUR + 90_000));
    await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock, onTransition });
    await enter(r.id, clock, 2);
    clock.set(at(2 * HOUR + 30_000));
    await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock, onTransition });
    expect(seen).toEqual([
      ['opened', 90_000],
      ['closed', 30_000],
      ['drawn', 0],
      ['finalized', 0],
    ]);
  });

  it('opens at startsAt and closes at endsAt, and does nothing a millisecond before either', async () => {
    const clock = manualClock(T0);
    const r = await published(clock, { startsIn: HOUR, endsIn: 2 * HOUR });
    expect(r.status).toBe('scheduled');

    expect(await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock })).toMatchObject({ opened: 0, closed: 0, drawn: 0, finalized: 0, failed: [] });
    clock.set(at(HOUR - 1));
    await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock });
    expect(await status(r.id)).toBe('scheduled');

    clock.set(at(HOUR));
    expect(await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock })).toMatchObject({ opened: 1, closed: 0 });
    expect(await raffle(r.id)).toMatchObject({ status: 'open', openedAt: at(HOUR) });

    clock.set(at(2 * HOUR - 1));
    expect(await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock })).toMatchObject({ opened: 0, closed: 0 });
    expect(await status(r.id)).toBe('open');

    clock.set(at(2 * HOUR));
    expect(await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock })).toMatchObject({ closed: 1, drawn: 0, finalized: 0 });
    expect(await raffle(r.id)).toMatchObject({ status: 'closed', closedAt: at(2 * HOUR) });

    // Without autoDraw a closed raffle waits for the team, however long.
    clock.set(at(30 * DAY));
    expect(await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock })).toMatchObject({ opened: 0, closed: 0, drawn: 0, finalized: 0 });
    expect(await status(r.id)).toBe('closed');
    expect(await raffleEventTypes(r.id)).toEqual(['raffle.published', 'raffle.opened', 'raffle.closed']);
  });

  it('autoDraw draws once closed, autoFinalize finalizes once drawn; each only when set', async () => {
    const clock = manualClock(T0);
    const plain = await published(clock, { endsIn: HOUR });
    const drawOnly = await published(clock, { endsIn: HOUR, settings: { autoDraw: true } });
    const both = await published(clock, { endsIn: HOUR, settings: { autoDraw: true, autoFinalize: true } });
    const finalizeOnly = await published(clock, { endsIn: HOUR, settings: { autoFinalize: true } });
    // An application raffle is never drawn automatically: its winners are picked by hand.
    const application = await published(clock, { endsIn: HOUR, mechanic: 'application', settings: { autoFinalize: true } });
    for (const r of [plain, drawOnly, both, finalizeOnly, application]) await enter(r.id, clock, 3);

    clock.set(at(HOUR - 1));
    await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock });
    for (const r of [plain, drawOnly, both, finalizeOnly, application]) expect(await status(r.id)).toBe('open');
    expect(await winsOf(drawOnly.id)).toHaveLength(0);

    clock.set(at(HOUR));
    expect(await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock })).toMatchObject({ closed: 5, drawn: 2, finalized: 1, failed: [] });
    expect(await status(plain.id)).toBe('closed');
    expect(await status(finalizeOnly.id)).toBe('closed');
    expect(await status(application.id)).toBe('closed');
    expect(await raffle(drawOnly.id)).toMatchObject({ status: 'drawn', drawnAt: at(HOUR) });
    expect(await raffle(both.id)).toMatchObject({ status: 'finalized', finalizedAt: at(HOUR) });

    const drawn = await winsOf(drawOnly.id);
    expect(drawn.map((w) => w.status)).toEqual(['selected', 'selected']);
    const finalized = await winsOf(both.id);
    expect(finalized.map((w) => w.status)).toEqual(['finalized', 'finalized']);
    expect(finalized.map((w) => w.position).sort()).toEqual([1, 2]);

    expect(await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock })).toMatchObject({ opened: 0, closed: 0, drawn: 0, finalized: 0 });
    expect(await raffleEventTypes(both.id)).toEqual(['raffle.published', 'raffle.opened', 'raffle.closed', 'raffle.drawn', 'raffle.finalized']);
  });

  it('two passes running at once over 20 due raffles move each exactly once', async () => {
    const clock = manualClock(T0);
    const raffles = [];
    for (let i = 0; i < 20; i++) raffles.push(await published(clock, { startsIn: MINUTE, endsIn: DAY }));
    clock.set(at(MINUTE));

    const passes = await Promise.all([runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock }), runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock })]);
    expect(passes.reduce((sum, p) => sum + p.opened, 0)).toBe(20);
    for (const p of passes) expect(p.failed).toEqual([]);

    const opened = (await world.events()).filter((e) => e.type === 'raffle.opened');
    for (const r of raffles) {
      expect(await status(r.id)).toBe('open');
      expect(opened.filter((e) => e.payload.data.id === r.id)).toHaveLength(1);
    }
    expect(opened).toHaveLength(20);
  });

  it('after downtime one pass catches every raffle up to its final state, events in lifecycle order', async () => {
    const clock = manualClock(T0);
    const lifecycle = ['raffle.published', 'raffle.opened', 'raffle.closed', 'raffle.drawn', 'raffle.finalized'];
    const cases = [
      { r: await published(clock, { startsIn: HOUR, endsIn: 2 * HOUR }), final: 'closed', events: 3 },
      { r: await published(clock, { startsIn: HOUR, endsIn: DAY, settings: { autoDraw: true } }), final: 'drawn', events: 4 },
      { r: await published(clock, { startsIn: 2 * HOUR, endsIn: 3 * HOUR, settings: { autoDraw: true, autoFinalize: true } }), final: 'finalized', events: 5 },
      { r: await published(clock, { endsIn: DAY, settings: { autoDraw: true, autoFinalize: true } }), final: 'finalized', events: 5, entrants: 4 },
      { r: await published(clock, { endsIn: DAY, mechanic: 'collection', spots: 3, settings: { autoDraw: true, autoFinalize: true } }), final: 'finalized', events: 5, entrants: 2 },
      { r: await published(clock, { endsIn: DAY, mechanic: 'application', settings: { autoFinalize: true } }), final: 'closed', events: 3, entrants: 1 },
    ];
    for (const c of cases) if (c.entrants) await enter(c.r.id, clock, c.entrants);
    const pending = await published(clock, { startsIn: 10 * DAY, endsIn: 11 * DAY, settings: { autoDraw: true, autoFinalize: true } });

    clock.set(at(5 * DAY));
    const pass = await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock });
    expect(pass.failed).toEqual([]);

    for (const c of cases) {
      expect(await status(c.r.id)).toBe(c.final);
      expect(await raffleEventTypes(c.r.id)).toEqual(lifecycle.slice(0, c.events));
    }
    expect(await status(pending.id)).toBe('scheduled');
    expect((await winsOf(cases[3]!.r.id)).map((w) => w.status)).toEqual(['finalized', 'finalized']);
    expect(await winsOf(cases[4]!.r.id)).toHaveLength(2);

    // Caught up: a second pass finds nothing to do.
    expect(await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock })).toMatchObject({ opened: 0, closed: 0, drawn: 0, finalized: 0, failed: [] });
  });

  it('a raffle whose transition fails is reported and skipped; the others still move', async () => {
    const clock = manualClock(T0);
    const good = await published(clock, { startsIn: MINUTE, endsIn: DAY });
    const broken = await published(clock, { endsIn: HOUR, settings: { autoDraw: true } });
    // A published raffle without its seed cannot be drawn: the draw throws.
    await world.db.update(schema.raffles).set({ drawSeed: null }).where(eq(schema.raffles.id, broken.id));
    clock.set(at(2 * HOUR));
    const errors: string[] = [];
    const pass = await runDueTransitions(world.db, { beacon: world.beacon.chain, rounds: world.beacon, clock, onError: (raffleId) => errors.push(raffleId) });
    expect(errors).toEqual([broken.id]);
    expect(pass).toMatchObject({ opened: 1, closed: 1, drawn: 0 });
    expect(pass.failed.map((f) => f.raffleId)).toEqual([broken.id]);
    expect(await status(good.id)).toBe('open');
    expect(await status(broken.id)).toBe('closed');
  });
});

describe('startRaffleScheduler', () => {
  it('catches up at start, then keeps passing on its interval until stopped', async () => {
    const clock = manualClock(T0);
    const early = await published(clock, { startsIn: MINUTE, endsIn: DAY });
    const later = await published(clock, { startsIn: HOUR, endsIn: DAY });
    clock.set(at(MINUTE));
    const passes: number[] = [];
    const scheduler = startRaffleScheduler({ db: world.db, clock, intervalMs: 20, onPass: (p) => passes.push(p.opened) });
    await expect.poll(() => status(early.id), { timeout: 5000 }).toBe('open');
    expect(await status(later.id)).toBe('scheduled');
    clock.set(at(HOUR));
    await expect.poll(() => status(later.id), { timeout: 5000 }).toBe('open');
    await scheduler.stop();
    const count = passes.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(passes.length).toBe(count);
    expect(passes.reduce((a, b) => a + b, 0)).toBe(2);
  });
});
