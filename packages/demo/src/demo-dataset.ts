import { schema, type Db, type DbOrTx, type Tx } from '@raffle/db';
import { eq, inArray, or, sql } from 'drizzle-orm';
import { demoKeysOf, type DemoKeys } from './demo-keys.js';
import { insertDemoWorld } from './load/insert-demo-world.js';
import { playRaffle } from './load/play-raffle.js';
import { planDemoDataset, type DemoPlan } from './plan/demo-plan.js';

/** Any fixed number: it only has to differ from the other advisory locks of the platform. */
const DEMO_LOAD_LOCK = 72707171;

async function demoWorkspaceExists(tx: DbOrTx, plan: DemoPlan): Promise<boolean> {
  const { workspaces } = schema;
  const [row] = await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, plan.orgs.workspaces.nebula.id));
  return row !== undefined;
}

export async function isDemoDatasetLoaded(db: DbOrTx): Promise<boolean> {
  return demoWorkspaceExists(db, planDemoDataset());
}

/**
 * The domain functions take a `Db` and open their own transactions. Handed the load's
 * transaction instead, they open savepoints in it (drizzle nests them), so the whole demo
 * commits or vanishes as one, under the advisory lock. A transaction lacks only the pool
 * handle (`$client`), which no domain function reads.
 */
const nestedDb = (tx: Tx): Db => tx as unknown as Db;

/**
 * Every step the domain played recorded an outbox event. The demo is history, not news: relaying
 * it would send months-old webhooks to whoever registers an endpoint. Every event naming a demo
 * workspace or user was written by this load (they did not exist before it), so exactly those go.
 */
async function dropDemoEvents(tx: Tx, plan: DemoPlan): Promise<void> {
  const { eventOutbox } = schema;
  const workspaceIds = Object.values(plan.orgs.workspaces).map((w) => w.id);
  const userIds = plan.users.map((u) => u.id);
  await tx.delete(eventOutbox).where(or(inArray(eventOutbox.workspaceId, workspaceIds), inArray(eventOutbox.userId, userIds)));
}

/**
 * Loads the demo dataset in one transaction, unless it is already there; either way returns
 * the demo keys, which are the same on every load.
 */
export async function loadDemoDataset(db: Db): Promise<DemoKeys> {
  const plan = planDemoDataset();
  await db.transaction(async (tx) => {
    // Two start commands against one database: the second waits, then finds the data present.
    await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_LOAD_LOCK})`);
    if (await demoWorkspaceExists(tx, plan)) return;
    await insertDemoWorld(tx, plan);
    for (const raffle of plan.raffles) await playRaffle(nestedDb(tx), raffle);
    await dropDemoEvents(tx, plan);
  });
  return demoKeysOf(plan);
}
