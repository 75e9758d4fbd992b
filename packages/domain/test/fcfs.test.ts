import { createDatabase, insertUser, schema, type Database } from '@raffle/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterRaffle, isDomainError, userPrincipal } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createWorld, type World } from './support/world.js';

let testDb: TestDatabase;
let world: World;
// The test database's pool holds 5 connections; 500 entrants at once want more in flight.
let wide: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  world = await createWorld(testDb.database);
  wide = createDatabase({ url: testDb.url, max: 20 });
});
afterAll(async () => {
  await wide?.close();
  await testDb?.drop();
});

describe('FCFS under contention', () => {
  it('500 simultaneous entrants for 10 spots: exactly 10 wins at positions 1..10, then the raffle closes once', async () => {
    const USERS = 500;
    const SPOTS = 10;
    const users = await Promise.all(Array.from({ length: USERS }, (_, i) => insertUser(wide.db, { handle: `fcfs-${i}-${world.workspace.slug}` })));
    const raffle = await world.openRaffle({ mechanic: 'fcfs', spots: SPOTS });
    expect(raffle.status).toBe('open');

    const outcomes = await Promise.allSettled(
      users.map((u) => enterRaffle(wide.db, { raffle: { slug: raffle.slug }, actor: userPrincipal(u.id), source: 'api' })),
    );

    const entered = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(entered).toHaveLength(SPOTS);
    expect(refused).toHaveLength(USERS - SPOTS);
    for (const error of refused) {
      expect(isDomainError(error), String(error)).toBe(true);
      // Whether it came before or after the close, a loser is told the raffle is full.
      expect((error as { code: string }).code).toBe('RAFFLE_FULL');
    }
    // Every call that returned holds a win; the one filling the last spot saw the raffle close.
    expect(entered.every((e) => e.win !== null)).toBe(true);
    expect(entered.filter((e) => e.raffle.status === 'closed')).toHaveLength(1);

    const wins = await world.db.select().from(schema.wins).where(eq(schema.wins.raffleId, raffle.id));
    expect(wins).toHaveLength(SPOTS);
    expect(wins.map((w) => w.position).sort((a, b) => a - b)).toEqual(Array.from({ length: SPOTS }, (_, i) => i + 1));
    expect(wins.every((w) => w.status === 'selected' && w.source === 'fcfs')).toBe(true);
    expect(new Set(wins.map((w) => w.entryId)).size).toBe(SPOTS);
    expect(new Set(wins.map((w) => w.userId)).size).toBe(SPOTS);

    const entries = await world.db.select().from(schema.entries).where(eq(schema.entries.raffleId, raffle.id));
    expect(entries).toHaveLength(SPOTS);
    expect(new Set(entries.map((e) => e.id))).toEqual(new Set(wins.map((w) => w.entryId)));

    const [row] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffle.id));
    expect(row!.status).toBe('closed');
    const closed = (await world.events()).filter((e) => e.type === 'raffle.closed' && e.payload.data.id === raffle.id);
    expect(closed).toHaveLength(1);
  });
});
