import { randomBytes } from 'node:crypto';
import type { CreateRaffleBody } from '@raffle/contracts';
import { addWorkspaceMember, insertUser, insertWorkspace, schema, type Database, type NewUser } from '@raffle/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { createRaffle, publishRaffle, userPrincipal, type Clock } from '../../src/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { localRoundSigner } from '@raffle/beacon';

const suffix = () => randomBytes(5).toString('hex');

/** A workspace with an owner, and helpers to add entrants and raffles: each test its own tenant. */
export async function createWorld(database: Database) {
  const { db } = database;
  const owner = await insertUser(db, { handle: `owner-${suffix()}`, createdAt: new Date('2020-01-01T00:00:00Z') });
  const workspace = await insertWorkspace(db, { slug: `ws-${suffix()}`, name: 'Test workspace' });
  await addWorkspaceMember(db, { workspaceId: workspace.id, userId: owner.id, role: 'owner' });
  /** The owner acting: what the team's own calls pass as the actor. */
  const team = userPrincipal(owner.id);

  return {
    db,
    /** The chain closes fix rounds on and draws fetch them from: a local beacon's key, signing any round at once. */
    beacon: localRoundSigner(),
    owner,
    team,
    workspace,
    async user(input: Partial<NewUser> = {}) {
      return insertUser(db, { handle: `u-${suffix()}`, createdAt: new Date('2020-01-01T00:00:00Z'), ...input });
    },
    async raffle(body: Partial<CreateRaffleBody> = {}, clock?: Clock) {
      return createRaffle(db, {
        actor: team,
        workspaceId: workspace.id,
        body: { slug: `r-${suffix()}`, title: 'A raffle', mechanic: 'raffle', allocationType: 'allowlist_gtd', visibility: 'public', spots: 3, ...body },
        clock,
      });
    },
    /** Created and published, so open now (no startsAt). */
    async openRaffle(body: Partial<CreateRaffleBody> = {}, clock?: Clock) {
      const raffle = await this.raffle(body, clock);
      return publishRaffle(db, { actor: team, raffleId: raffle.id, clock });
    },
    async events(filter: { workspaceId?: string; userId?: string } = { workspaceId: workspace.id }) {
      const { eventOutbox } = schema;
      const rows = await db
        .select()
        .from(eventOutbox)
        .where(filter.userId ? eq(eventOutbox.userId, filter.userId) : eq(eventOutbox.workspaceId, filter.workspaceId!))
        .orderBy(eventOutbox.seq);
      return rows.map((r) => ({ type: r.type, userId: r.userId, workspaceId: r.workspaceId, payload: JSON.parse(r.payload) as { type: string; timestamp: string; data: Record<string, unknown> } }));
    },
  };
}

export type World = Awaited<ReturnType<typeof createWorld>>;

/**
 * The test file's tenant: a database of its own and a world in it, made before the file's tests
 * and dropped after. The object is filled in by then, so tests read `world.db` and the like directly.
 */
export function useWorld(): World {
  const world = {} as World;
  let testDb: TestDatabase | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    Object.assign(world, await createWorld(testDb.database));
  });
  afterAll(() => testDb?.drop());
  return world;
}
