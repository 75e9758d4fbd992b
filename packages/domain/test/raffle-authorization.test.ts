import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWorkspaceMember, insertWorkspace, schema, type Tx } from '@raffle/db';
import { asc, eq, inArray } from 'drizzle-orm';
import {
  cancelRaffle,
  cancelRaffleIn,
  closeRaffle,
  closeRaffleIn,
  createRaffle,
  disqualifyEntry,
  disqualifyWin,
  drawRaffle,
  drawRaffleIn,
  fetchDrawBeacon,
  editRaffle,
  enterRaffle,
  finalizeRaffle,
  finalizeRaffleIn,
  lockRaffle,
  openRaffle,
  openRaffleIn,
  publishRaffle,
  publishRaffleIn,
  rerollWin,
  SCHEDULER,
  SEED,
  setWinDelivery,
  userPrincipal,
  withdrawEntry,
  type Principal,
  type RaffleRecord,
} from '../src/index.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createWorld, type World } from './support/world.js';

// Every mutating raffle, entry and win function checks the acting principal itself, inside its
// transaction: these call them directly (no route, no access hook) as each kind of caller.

let testDb: TestDatabase;
let world: World;
const as: Record<'member' | 'outsider' | 'admin', Principal> = {} as never;

beforeAll(async () => {
  testDb = await createTestDatabase();
  world = await createWorld(testDb.database);
  const [member, admin, outsider] = await Promise.all([world.user(), world.user(), world.user()]);
  await addWorkspaceMember(world.db, { workspaceId: world.workspace.id, userId: member.id, role: 'member' });
  await addWorkspaceMember(world.db, { workspaceId: world.workspace.id, userId: admin.id, role: 'admin' });
  // The outsider owns a workspace of their own: owning one workspace grants nothing in another.
  const elsewhere = await insertWorkspace(world.db, { slug: `elsewhere-${randomBytes(5).toString('hex')}`, name: 'Elsewhere' });
  await addWorkspaceMember(world.db, { workspaceId: elsewhere.id, userId: outsider.id, role: 'owner' });
  as.member = userPrincipal(member.id);
  as.admin = userPrincipal(admin.id);
  as.outsider = userPrincipal(outsider.id);
});
afterAll(() => testDb.drop());

const FORBIDDEN = { code: 'FORBIDDEN', statusCode: 403, message: 'only owners and admins of this workspace may change it' };

/** Everything a refused call could have changed in the test's workspace. */
async function workspaceState() {
  const { raffles, entries, wins, eventOutbox } = schema;
  const raffleRows = await world.db.select().from(raffles).where(eq(raffles.workspaceId, world.workspace.id)).orderBy(asc(raffles.id));
  const ids = raffleRows.map((r) => r.id);
  const entryRows = ids.length ? await world.db.select().from(entries).where(inArray(entries.raffleId, ids)).orderBy(asc(entries.id)) : [];
  const winRows = ids.length ? await world.db.select().from(wins).where(inArray(wins.raffleId, ids)).orderBy(asc(wins.id)) : [];
  const events = await world.db.select({ seq: eventOutbox.seq }).from(eventOutbox).where(eq(eventOutbox.workspaceId, world.workspace.id));
  return { raffleRows, entryRows, winRows, events: events.length };
}

/** A raffle brought to `status` by the team, with `entrants` entries (and wins once drawn). */
async function raffleIn(status: 'draft' | 'scheduled' | 'open' | 'closed' | 'drawn', entrants = 0): Promise<RaffleRecord> {
  const future = new Date(Date.now() + 86_400_000).toISOString();
  let raffle = await world.raffle({ spots: 1, ...(status === 'scheduled' ? { startsAt: future } : {}) });
  if (status === 'draft') return raffle;
  raffle = await publishRaffle(world.db, { actor: world.team, raffleId: raffle.id });
  for (let i = 0; i < entrants; i++) await enterRaffle(world.db, { actor: userPrincipal((await world.user()).id), raffle: { raffleId: raffle.id }, source: 'api' });
  if (status === 'scheduled' || status === 'open') return raffle;
  raffle = await closeRaffle(world.db, { beacon: world.beacon.chain, actor: world.team, raffleId: raffle.id });
  if (status === 'closed') return raffle;
  return drawRaffle(world.db, { rounds: world.beacon, actor: world.team, raffleId: raffle.id });
}

const firstEntryOf = async (raffleId: string) => (await world.db.select().from(schema.entries).where(eq(schema.entries.raffleId, raffleId)))[0]!;
const firstWinOf = async (raffleId: string) => (await world.db.select().from(schema.wins).where(eq(schema.wins.raffleId, raffleId)))[0]!;

/** Inside the caller's transaction, on a raffle it has locked. */
const inTransaction = (raffleId: string, step: (tx: Tx, raffle: RaffleRecord) => Promise<unknown>) =>
  world.db.transaction(async (tx) => step(tx, await lockRaffle(tx, { raffleId })));

type Status = Parameters<typeof raffleIn>[0];
type Case = { name: string; act: (actor: Principal) => Promise<() => Promise<unknown>> };

/** A case on a fresh raffle in `status`: the call to make as `actor`, once the raffle is ready. */
const on =
  (status: Status, entrants: number, call: (raffle: RaffleRecord, actor: Principal) => Promise<unknown>): Case['act'] =>
  async (actor) => {
    const raffle = await raffleIn(status, entrants);
    return () => call(raffle, actor);
  };

const ws = () => world.workspace.id;
const target = (raffle: RaffleRecord, actor: Principal) => ({ actor, workspaceId: ws(), raffleId: raffle.id });
const body = () => ({ slug: `r-${randomBytes(5).toString('hex')}`, title: 'A raffle', mechanic: 'raffle' as const, allocationType: 'allowlist_gtd' as const, visibility: 'public' as const, spots: 1 });

const CASES: Case[] = [
  { name: 'createRaffle', act: async (actor) => () => createRaffle(world.db, { actor, workspaceId: ws(), body: body() }) },
  { name: 'editRaffle', act: on('draft', 0, (r, actor) => editRaffle(world.db, { ...target(r, actor), body: { title: 'Renamed' } })) },
  { name: 'publishRaffle', act: on('draft', 0, (r, actor) => publishRaffle(world.db, target(r, actor))) },
  { name: 'openRaffle', act: on('scheduled', 0, (r, actor) => openRaffle(world.db, target(r, actor))) },
  { name: 'closeRaffle', act: on('open', 0, (r, actor) => closeRaffle(world.db, { ...target(r, actor), beacon: world.beacon.chain })) },
  { name: 'drawRaffle', act: on('closed', 1, (r, actor) => drawRaffle(world.db, { ...target(r, actor), rounds: world.beacon })) },
  { name: 'finalizeRaffle', act: on('drawn', 1, (r, actor) => finalizeRaffle(world.db, target(r, actor))) },
  { name: 'cancelRaffle', act: on('open', 0, (r, actor) => cancelRaffle(world.db, target(r, actor))) },
  // Without the workspace named (as the scheduler and seeds call them), the raffle's own workspace is checked.
  { name: 'closeRaffle, workspace not named', act: on('open', 0, (r, actor) => closeRaffle(world.db, { beacon: world.beacon.chain, actor, raffleId: r.id })) },
  { name: 'drawRaffle, workspace not named', act: on('closed', 1, (r, actor) => drawRaffle(world.db, { rounds: world.beacon, actor, raffleId: r.id })) },
  { name: 'publishRaffleIn', act: on('draft', 0, (r, actor) => inTransaction(r.id, (tx, raffle) => publishRaffleIn(tx, actor, raffle, new Date()))) },
  { name: 'openRaffleIn', act: on('scheduled', 0, (r, actor) => inTransaction(r.id, (tx, raffle) => openRaffleIn(tx, actor, raffle, new Date()))) },
  { name: 'closeRaffleIn', act: on('open', 0, (r, actor) => inTransaction(r.id, (tx, raffle) => closeRaffleIn(tx, actor, raffle, new Date()))) },
  { name: 'drawRaffleIn', act: on('closed', 1, (r, actor) => inTransaction(r.id, async (tx, raffle) => drawRaffleIn(tx, actor, raffle, new Date(), await fetchDrawBeacon(world.beacon, raffle)))) },
  { name: 'finalizeRaffleIn', act: on('drawn', 1, (r, actor) => inTransaction(r.id, (tx, raffle) => finalizeRaffleIn(tx, actor, raffle, new Date()))) },
  { name: 'cancelRaffleIn', act: on('open', 0, (r, actor) => inTransaction(r.id, (tx, raffle) => cancelRaffleIn(tx, actor, raffle, new Date()))) },
  {
    name: 'disqualifyEntry',
    act: on('open', 1, async (r, actor) =>
      disqualifyEntry(world.db, { ...target(r, actor), entryId: (await firstEntryOf(r.id)).id, reason: 'Bot' }),
    ),
  },
  {
    name: 'disqualifyWin',
    act: on('drawn', 1, async (r, actor) =>
      disqualifyWin(world.db, { ...target(r, actor), winId: (await firstWinOf(r.id)).id, reason: 'Broke the rules' }),
    ),
  },
  {
    name: 'rerollWin',
    act: async (actor) => {
      const r = await raffleIn('drawn', 2);
      const win = await firstWinOf(r.id);
      await disqualifyWin(world.db, { ...target(r, world.team), winId: win.id, reason: 'Broke the rules' });
      return () => rerollWin(world.db, { ...target(r, actor), winId: win.id });
    },
  },
  {
    name: 'setWinDelivery',
    act: on('drawn', 1, async (r, actor) =>
      setWinDelivery(world.db, { ...target(r, actor), winId: (await firstWinOf(r.id)).id, deliveryStatus: 'processing' }),
    ),
  },
];

describe.each(CASES)('$name', ({ act }) => {
  it.each(['member', 'outsider'] as const)('refuses a %s with 403 FORBIDDEN and changes nothing', async (role) => {
    const call = await act(as[role]);
    const before = await workspaceState();
    await expect(call()).rejects.toMatchObject(FORBIDDEN);
    expect(await workspaceState()).toEqual(before);
  });

  it('lets an admin act', async () => {
    const call = await act(as.admin);
    await expect(call()).resolves.toBeDefined();
  });
});

describe('entering and withdrawing are the acting user’s own', () => {
  it.each([
    ['the scheduler', SCHEDULER],
    ['a seed', SEED],
  ])('%s may not enter a raffle (403 FORBIDDEN), and nothing is stored', async (_name, actor) => {
    const raffle = await raffleIn('open');
    const before = await workspaceState();
    await expect(enterRaffle(world.db, { actor, raffle: { raffleId: raffle.id }, source: 'api' })).rejects.toMatchObject({ code: 'FORBIDDEN', statusCode: 403 });
    expect(await workspaceState()).toEqual(before);
  });

  it('a user enters as themselves', async () => {
    const raffle = await raffleIn('open');
    const user = await world.user();
    const { entry } = await enterRaffle(world.db, { actor: userPrincipal(user.id), raffle: { raffleId: raffle.id }, source: 'api' });
    expect(entry.userId).toBe(user.id);
  });

  it('only the entrant withdraws their entry; the system may not withdraw anyone’s', async () => {
    const raffle = await raffleIn('open');
    const entrant = await world.user();
    await enterRaffle(world.db, { actor: userPrincipal(entrant.id), raffle: { raffleId: raffle.id }, source: 'api' });
    const before = await workspaceState();
    for (const actor of [SCHEDULER, SEED]) {
      await expect(withdrawEntry(world.db, { actor, raffle: { raffleId: raffle.id } })).rejects.toMatchObject({ code: 'FORBIDDEN', statusCode: 403 });
    }
    // Another user acting withdraws only their own entry, and has none.
    await expect(withdrawEntry(world.db, { actor: as.admin, raffle: { raffleId: raffle.id } })).rejects.toMatchObject({ code: 'ENTRY_NOT_FOUND' });
    expect(await workspaceState()).toEqual(before);
    const withdrawn = await withdrawEntry(world.db, { actor: userPrincipal(entrant.id), raffle: { raffleId: raffle.id } });
    expect(withdrawn).toMatchObject({ userId: entrant.id, status: 'withdrawn' });
  });
});
