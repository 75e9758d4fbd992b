import { createDatabase, enterRaffleInOneStatement, schema, type Database } from '@raffle/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disqualifyWin, enterRaffle, isDomainError, userPrincipal, type EnteredRaffle } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createWorld, type World } from './support/world.js';

// An FCFS raffle's spots are rows claimed with SKIP LOCKED (decision 0029). These tests hold a
// claim open in the middle of a rush and roll it back, to pin what "full" means while claims are
// in flight: nobody is refused while a spot may still come free, and the raffle closes only with
// every spot taken by a committed win, at positions 1..spots.

let testDb: TestDatabase;
let world: World;
let wide: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  world = await createWorld(testDb.database);
  wide = createDatabase({ url: testDb.url, max: 30 });
});
afterAll(async () => {
  await wide?.close();
  await testDb?.drop();
});

class RolledBack extends Error {}

/**
 * An entrant whose entry stops after claiming its spot, until `rollBack` makes it roll back: the
 * entry's one statement run inside a transaction this test holds open (as the demo's load runs
 * it), so its claim stays in flight meanwhile.
 */
function heldEntrant(raffleId: string, userId: string) {
  let claimed!: () => void;
  const hasClaimed = new Promise<void>((resolve) => (claimed = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const state = { rolledBack: false };
  const entering = wide.db.transaction(async (tx) => {
    const attempt = { ref: { raffleId }, userId, source: 'api', ipHash: null, at: new Date(), fingerprint: null, fcfs: true } as const;
    const entered = await enterRaffleInOneStatement(tx, { ...attempt, verdict: 'passed', weight: '1', evaluations: [] });
    if (entered.outcome !== 'entered') throw new Error(`not entered: ${entered.outcome}`);
    claimed();
    await released;
    throw new RolledBack();
  });
  const settled = entering.then(
    () => 'entered',
    (error: unknown) => (error instanceof RolledBack ? 'rolled back' : error),
  );
  return {
    hasClaimed,
    state,
    settled,
    rollBack: () => {
      state.rolledBack = true;
      release();
    },
  };
}

/** Backends of this test's database waiting for a lock (a row held by another transaction). */
async function lockWaiters(): Promise<number> {
  const rows = await world.db.execute<{ n: number }>(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return rows[0]!.n;
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function raffleRow(raffleId: string) {
  const [row] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffleId));
  return row!;
}

async function winsOf(raffleId: string) {
  return world.db.select().from(schema.wins).where(eq(schema.wins.raffleId, raffleId));
}

const enter = async (raffleId: string) => enterRaffle(wide.db, { raffle: { raffleId }, actor: userPrincipal((await world.user()).id), source: 'api' });

describe('FCFS spots while claims are in flight', () => {
  it('a claim that rolls back leaves its spot free: the raffle stays open, and the entrant who takes the spot closes it', async () => {
    const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: 3 });
    const held = heldEntrant(raffle.id, (await world.user()).id);
    await held.hasClaimed;
    // The other two spots go to entrants who commit; the one that left no spot unclaimed tries
    // the close, which waits for the held claim (it shares the raffle row) rather than close.
    const entering = Promise.all([enter(raffle.id), enter(raffle.id)]);
    await until(async () => (await winsOf(raffle.id)).length === 2 && (await lockWaiters()) >= 1);
    expect((await raffleRow(raffle.id)).status).toBe('open');

    held.rollBack();
    expect(await held.settled).toBe('rolled back');
    const others = await entering;
    expect(others.map((e) => e.win!.position).sort()).toEqual([2, 3]);
    expect(others.every((e) => e.raffle.status === 'open')).toBe(true);
    expect((await raffleRow(raffle.id)).status).toBe('open');
    const last = await enter(raffle.id);
    expect(last.win!.position).toBe(1);
    expect(last.raffle.status).toBe('closed');
    const wins = await winsOf(raffle.id);
    expect(wins.map((w) => w.position).sort()).toEqual([1, 2, 3]);
    await expect(enter(raffle.id)).rejects.toMatchObject({ code: 'RAFFLE_FULL' });
  });

  it('a rush meeting a claim in flight waits for it: nobody is told RAFFLE_FULL before it rolls back, and one of them takes its spot', async () => {
    const SPOTS = 4;
    const RUSH = 25;
    const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: SPOTS });
    const held = heldEntrant(raffle.id, (await world.user()).id);
    await held.hasClaimed;
    const users = await Promise.all(Array.from({ length: RUSH }, () => world.user()));
    const refusedWhileHeld: string[] = [];
    const rush = users.map((u) =>
      enterRaffle(wide.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(u.id), source: 'api' }).then(
        (entered): EnteredRaffle => entered,
        (error: unknown) => {
          if (!held.state.rolledBack) refusedWhileHeld.push(String((error as { code?: string }).code ?? error));
          throw error;
        },
      ),
    );
    const outcomes = Promise.allSettled(rush);
    // The free spots go at once; the rest of the rush waits for the held claim's spot (each for
    // its row lock, or for the raffle row behind the close that waits for it).
    await until(async () => (await winsOf(raffle.id)).length === SPOTS - 1 && (await lockWaiters()) >= 1);
    expect((await raffleRow(raffle.id)).status).toBe('open');
    held.rollBack();
    expect(await held.settled).toBe('rolled back');

    const settled = await outcomes;
    expect(refusedWhileHeld).toEqual([]);
    const entered = settled.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const refused = settled.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(entered).toHaveLength(SPOTS);
    for (const error of refused) {
      expect(isDomainError(error), String(error)).toBe(true);
      expect((error as { code: string }).code).toBe('RAFFLE_FULL');
    }
    const wins = await winsOf(raffle.id);
    expect(wins.filter((w) => w.status === 'selected').map((w) => w.position).sort()).toEqual([1, 2, 3, 4]);
    expect((await raffleRow(raffle.id)).status).toBe('closed');
    expect(entered.filter((e) => e.raffle.status === 'closed')).toHaveLength(1);
    const closes = (await world.events()).filter((e) => e.type === 'raffle.closed' && e.payload.data.id === raffle.id);
    expect(closes).toHaveLength(1);
  });

  it('many entrants at once on a small raffle: exactly spots wins at 1..spots, every spot row held by its win', async () => {
    const SPOTS = 7;
    const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: SPOTS });
    const users = await Promise.all(Array.from({ length: 120 }, () => world.user()));
    const settled = await Promise.allSettled(users.map((u) => enterRaffle(wide.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(u.id), source: 'api' })));
    const entered = settled.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(entered).toHaveLength(SPOTS);
    for (const o of settled) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'RAFFLE_FULL' });
    const wins = await winsOf(raffle.id);
    expect(wins.map((w) => w.position).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const spots = await world.db.select().from(schema.fcfsSpots).where(eq(schema.fcfsSpots.raffleId, raffle.id));
    const entryAt = new Map(wins.map((w) => [w.position, w.entryId]));
    expect(spots.map((s) => [s.position, s.entryId]).sort()).toEqual([1, 2, 3, 4, 5, 6, 7].map((p) => [p, entryAt.get(p)]));
    expect((await raffleRow(raffle.id)).status).toBe('closed');
  });

  it('a spot freed by a disqualification while entrants are in flight is taken once, by the next claim', async () => {
    const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: 3 });
    const first = await enter(raffle.id);
    const held = heldEntrant(raffle.id, (await world.user()).id);
    await held.hasClaimed;
    const target = { actor: world.team, workspaceId: world.workspace.id, raffleId: raffle.id };
    // The disqualification waits for the claim in flight (it takes the raffle row exclusively).
    const disqualifying = disqualifyWin(wide.db, { ...target, winId: first.win!.id, reason: 'Bot' });
    await until(async () => (await lockWaiters()) >= 1);
    held.rollBack();
    await held.settled;
    await disqualifying;
    // Spots 1 (freed) and 2 (rolled back) are free: the next entrants take them, lowest first.
    const second = await enter(raffle.id);
    expect(second.win!.position).toBe(1);
    const third = await enter(raffle.id);
    expect(third.win!.position).toBe(2);
    const fourth = await enter(raffle.id);
    expect(fourth.win!.position).toBe(3);
    expect(fourth.raffle.status).toBe('closed');
    const wins = await winsOf(raffle.id);
    expect(wins.find((w) => w.id === first.win!.id)).toMatchObject({ status: 'replaced', position: 1 });
    expect(wins.filter((w) => w.status === 'selected').map((w) => w.position).sort()).toEqual([1, 2, 3]);
  });
});

describe('entering a first-come raffle', () => {
  it('is one statement: the first entrant of a raffle per process learns its plan (a second call), the others send one; the last spot closes in a step of its own', async () => {
    const sent: string[] = [];
    // One connection: a second one would open with postgres.js's own type lookup, a statement that
    // is not the entry's (a CI run on a loaded machine met it when the relay's wake-up held the first).
    const observed = createDatabase({ url: testDb.url, max: 1, onStatement: (query) => sent.push(query) });
    try {
      const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: 3 });
      const enterObserved = async () => enterRaffle(observed.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal((await world.user()).id), source: 'api' });
      const calls = () => sent.filter((q) => q.includes('enter_raffle(')).length;
      expect((await enterObserved()).win!.position).toBe(1);
      expect(calls()).toBe(2);
      const before = sent.length;
      const second = await enterObserved();
      expect(second.win!.position).toBe(2);
      expect(second.raffle.status).toBe('open');
      // One statement (the relay's coalesced wake-up after the commit aside: the pool's, not the entry's).
      const entryStatements = sent.slice(before).filter((q) => !q.startsWith('select pg_notify'));
      expect(entryStatements, entryStatements.join('\n')).toHaveLength(1);
      const last = await enterObserved();
      expect(last.win!.position).toBe(3);
      expect(last.raffle.status).toBe('closed');
      expect(calls()).toBe(4);
    } finally {
      await observed.close();
    }
  });
});
