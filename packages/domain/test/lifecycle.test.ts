import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '@raffle/db';
import { eq, sql } from 'drizzle-orm';
import {
  cancelRaffle,
  closeRaffle,
  drawRaffle,
  editRaffle,
  enterRaffle,
  finalizeRaffle,
  manualClock,
  openRaffle,
  publishRaffle,
  RAFFLE_ACTIONS,
  userPrincipal,
  type Principal,
  type RaffleAction,
} from '../src/index.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createWorld, type World } from './support/world.js';

let testDb: TestDatabase;
let world: World;

beforeAll(async () => {
  testDb = await createTestDatabase();
  world = await createWorld(testDb.database);
});
afterAll(() => testDb.drop());

const outboxCount = async () => (await testDb.database.db.select().from(schema.eventOutbox)).length;

type Target = { actor: Principal; raffleId: string; workspaceId: string };
const ACT: Record<Exclude<RaffleAction, 'update'>, (t: Target) => Promise<unknown>> = {
  publish: (t) => publishRaffle(world.db, t),
  open: (t) => openRaffle(world.db, t),
  close: (t) => closeRaffle(world.db, { ...t, beacon: world.beacon.chain }),
  draw: (t) => drawRaffle(world.db, { ...t, rounds: world.beacon }),
  finalize: (t) => finalizeRaffle(world.db, t),
  cancel: (t) => cancelRaffle(world.db, t),
};

/** Brings a fresh raffle of `mechanic` to `status` through the real transitions. */
async function raffleIn(status: string, mechanic: 'raffle' | 'fcfs' | 'collection' | 'application') {
  const future = new Date(Date.now() + 86_400_000).toISOString();
  const draft = await world.raffle({ mechanic, spots: 2, ...(status === 'scheduled' ? { startsAt: future } : {}) });
  const t = { actor: world.team, raffleId: draft.id, workspaceId: world.workspace.id };
  if (status === 'draft') return t;
  await publishRaffle(world.db, t);
  if (status === 'scheduled' || status === 'open') return t;
  if (status === 'cancelled') {
    await cancelRaffle(world.db, t);
    return t;
  }
  const entrant = await world.user();
  await enterRaffle(world.db, { raffle: { raffleId: t.raffleId }, actor: userPrincipal(entrant.id), source: 'api' });
  const [entry] = await world.db.select().from(schema.entries).where(eq(schema.entries.raffleId, t.raffleId));
  await closeRaffle(world.db, { ...t, beacon: world.beacon.chain });
  if (status === 'closed') return t;
  await drawRaffle(world.db, { rounds: world.beacon, ...t, ...(mechanic === 'application' ? { selection: { entryIds: [entry!.id] } } : {}) });
  if (status === 'drawn') return t;
  await finalizeRaffle(world.db, t);
  return t;
}

const STATUSES = ['draft', 'scheduled', 'open', 'closed', 'drawn', 'finalized', 'cancelled'] as const;
const MECHANICS = ['raffle', 'fcfs', 'collection', 'application'] as const;

describe.each(MECHANICS)('%s raffles: every action from every status', (mechanic) => {
  for (const status of STATUSES) {
    for (const action of Object.keys(ACT) as (keyof typeof ACT)[]) {
      const allowed = (RAFFLE_ACTIONS[action].from as readonly string[]).includes(status);
      it(`${action} from ${status} ${allowed ? 'succeeds' : `is 409 ${RAFFLE_ACTIONS[action].code}`}`, async () => {
        const target = await raffleIn(status, mechanic);
        const before = await outboxCount();
        if (action === 'draw' && mechanic === 'application' && allowed) {
          const [entry] = await world.db.select().from(schema.entries).where(eq(schema.entries.raffleId, target.raffleId));
          await drawRaffle(world.db, { rounds: world.beacon, ...target, selection: { entryIds: [entry!.id] } });
        } else if (allowed) {
          await ACT[action](target);
        } else {
          await expect(ACT[action](target)).rejects.toMatchObject({ statusCode: 409, code: RAFFLE_ACTIONS[action].code });
          expect(await outboxCount()).toBe(before);
          return;
        }
        const [row] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, target.raffleId));
        const expected = { publish: 'open', open: 'open', close: 'closed', draw: 'drawn', finalize: 'finalized', cancel: 'cancelled' }[action];
        expect(row!.status).toBe(expected);
      });
    }
  }
});

describe('events', () => {
  it('each raffle transition writes exactly one raffle event, carrying the workspace raffle item', async () => {
    const clock = manualClock(new Date());
    const draft = await world.raffle({ startsAt: new Date(clock.now().getTime() + 60_000).toISOString() }, clock);
    const t = { actor: world.team, raffleId: draft.id, workspaceId: world.workspace.id, clock };
    const raffleEvents = async () => (await world.events()).filter((e) => e.payload.data.id === draft.id && e.type.startsWith('raffle.'));
    expect(await raffleEvents()).toHaveLength(0);
    await publishRaffle(world.db, t);
    expect((await raffleEvents()).map((e) => e.type)).toEqual(['raffle.published']);
    clock.advance(60_000);
    await openRaffle(world.db, t);
    await closeRaffle(world.db, { ...t, beacon: world.beacon.chain });
    await drawRaffle(world.db, { ...t, rounds: world.beacon });
    await finalizeRaffle(world.db, t);
    const events = await raffleEvents();
    expect(events.map((e) => e.type)).toEqual(['raffle.published', 'raffle.opened', 'raffle.closed', 'raffle.drawn', 'raffle.finalized']);
    expect(events.map((e) => e.payload.data.status)).toEqual(['scheduled', 'open', 'closed', 'drawn', 'finalized']);
    for (const e of events) expect(e.payload.type).toBe(e.type);
  });

  it('publishing a raffle that starts now records published and opened', async () => {
    const draft = await world.raffle();
    await publishRaffle(world.db, { actor: world.team, raffleId: draft.id });
    const types = (await world.events()).filter((e) => e.payload.data.id === draft.id).map((e) => e.type);
    expect(types).toEqual(['raffle.published', 'raffle.opened']);
  });

  it('publishing straight to open records published before opened, in id order as in seq order', async () => {
    // One publish writes both in the same millisecond; ids ordered them by chance, so try many.
    for (let i = 0; i < 20; i++) {
      const draft = await world.raffle();
      await publishRaffle(world.db, { actor: world.team, raffleId: draft.id });
      const rows = await world.db
        .select({ id: schema.eventOutbox.id, type: schema.eventOutbox.type })
        .from(schema.eventOutbox)
        .where(sql`${schema.eventOutbox.payload}::jsonb -> 'data' ->> 'id' = ${draft.id}`)
        .orderBy(schema.eventOutbox.id);
      expect(rows.map((r) => r.type)).toEqual(['raffle.published', 'raffle.opened']);
    }
  });

  it('a transaction that rolls back leaves no event behind', async () => {
    const draft = await world.raffle();
    const before = await outboxCount();
    await expect(
      world.db.transaction(async (tx) => {
        const { lockRaffle, publishRaffleIn } = await import('../src/index.js');
        await publishRaffleIn(tx, world.team, await lockRaffle(tx, { raffleId: draft.id }), new Date());
        throw new Error('boom after the event was written');
      }),
    ).rejects.toThrow('boom');
    expect(await outboxCount()).toBe(before);
    const [row] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, draft.id));
    expect(row!.status).toBe('draft');
  });
});

describe('editing', () => {
  it('a draft changes freely; an open raffle refuses fields entries were judged against', async () => {
    const draft = await world.raffle();
    const edited = await editRaffle(world.db, { actor: world.team, workspaceId: world.workspace.id, raffleId: draft.id, body: { title: 'New title', spots: 9 } });
    expect(edited).toMatchObject({ title: 'New title', spots: 9 });
    await publishRaffle(world.db, { actor: world.team, raffleId: draft.id });
    await expect(editRaffle(world.db, { actor: world.team, workspaceId: world.workspace.id, raffleId: draft.id, body: { spots: 1 } })).rejects.toMatchObject({
      code: 'RAFFLE_CANNOT_UPDATE',
    });
    const retitled = await editRaffle(world.db, { actor: world.team, workspaceId: world.workspace.id, raffleId: draft.id, body: { title: 'Still editable' } });
    expect(JSON.parse(retitled.workspaceItemJson).title).toBe('Still editable');
  });

  it('refuses bad requirements, autoDraw on application raffles and endsAt before startsAt, all at once', async () => {
    await expect(
      world.raffle({
        mechanic: 'application',
        settings: { autoDraw: true },
        startsAt: '2030-01-02T00:00:00Z',
        endsAt: '2030-01-01T00:00:00Z',
        requirements: [{ id: 'a', type: 'wallet_connected', label: 'Wallet', params: {} }],
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/chain.*autoDraw.*endsAt/s) });
  });

  it('a taken slug is 409 SLUG_TAKEN', async () => {
    const first = await world.raffle();
    await expect(world.raffle({ slug: first.slug })).rejects.toMatchObject({ code: 'SLUG_TAKEN' });
  });
});
