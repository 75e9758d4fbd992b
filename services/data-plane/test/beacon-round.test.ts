import { roundAt, type BeaconChain } from '@raffle/beacon';
import { localBeaconChain } from '@raffle/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beaconChainOf } from '../src/decorations.js';
import { buildTestApp } from './support/app.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';

/**
 * The round a close fixes for the draw (decision 0022), as the data plane shows it and as it
 * fixes it itself: the entry that fills a first-come raffle closes it, on the chain the data
 * plane pins (here the run's local beacon, BEACON_CHAIN).
 */

let db: TestDatabase;
let app: FastifyInstance;
let world: LifecycleWorld;
let chain: BeaconChain;
let workspaceHeaders: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createLifecycleWorld(db.database);
  app = await buildTestApp(db.database, db.url);
  chain = localBeaconChain();
  workspaceHeaders = { authorization: `Bearer ${(await world.workspaceKey()).apiKey}` };
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const expectedRound = (closedAt: string) => roundAt(chain, Math.floor(Date.parse(closedAt) / 1000)) + 2;
const workspaceRaffle = (id: string) => app.inject({ url: `/api/v1/workspaces/${world.workspace.id}/raffles/${id}`, headers: workspaceHeaders });
const chainHashOf = async (id: string) => (await db.database.sql<{ hash: string }[]>`select beacon_chain_hash as hash from raffles where id = ${id}`)[0]!.hash;

describe('beaconRound', () => {
  it('pins the chain of BEACON_CHAIN', () => {
    expect(beaconChainOf(app)).toEqual(chain);
  });

  it('is null on the workspace raffle until it closes, then the round at closedAt plus 2, in the list too', async () => {
    const raffle = await world.open();
    const open = (await workspaceRaffle(raffle.id)).json();
    expect(open.beaconRound).toBeNull();
    await world.close(raffle.id);
    const res = await workspaceRaffle(raffle.id);
    expect(res.statusCode, res.body).toBe(200);
    const closed = res.json();
    expectMatchesSchema('WorkspaceRaffle', closed);
    expect(closed.beaconRound).toBe(expectedRound(closed.closedAt));
    const list = (await app.inject({ url: `/api/v1/workspaces/${world.workspace.id}/raffles`, headers: workspaceHeaders })).json();
    expect(list.data.find((r: { id: string }) => r.id === raffle.id).beaconRound).toBe(closed.beaconRound);
  });

  it('the public raffle shows it once closed, and leaves it out before', async () => {
    const raffle = await world.open();
    const viewer = await world.entrant();
    expect((await app.inject({ url: `/api/v1/raffles/${raffle.slug}`, headers: viewer.headers })).json()).not.toHaveProperty('beaconRound');
    await world.close(raffle.id);
    const res = await app.inject({ url: `/api/v1/raffles/${raffle.slug}`, headers: viewer.headers });
    expectMatchesSchema('PublicRaffle', res.json());
    expect(res.json().beaconRound).toBe(expectedRound(res.json().closedAt));
  });

  it('the entry that fills a first-come raffle closes it on the pinned chain, and raffle.closed carries the round', async () => {
    const raffle = await world.open({ mechanic: 'fcfs', spots: 1 });
    const entrant = await world.entrant();
    const entered = await app.inject({ method: 'POST', url: `/api/v1/raffles/${raffle.slug}/entries`, headers: entrant.headers });
    expect(entered.statusCode, entered.body).toBe(201);
    const closed = (await workspaceRaffle(raffle.id)).json();
    expect(closed.status).toBe('closed');
    expect(closed.beaconRound).toBe(expectedRound(closed.closedAt));
    expect(await chainHashOf(raffle.id)).toBe(chain.chainHash);
    const events = await db.database.sql<{ payload: string }[]>`select payload from event_outbox where type = 'raffle.closed'`;
    const event = events.map((e) => JSON.parse(e.payload) as { data: { id: string; beaconRound: number } }).find((e) => e.data.id === raffle.id);
    expect(event!.data.beaconRound).toBe(closed.beaconRound);
  });
});
