import { localRoundSigner } from '@raffle/beacon';
import { deleteEventsAddressedTo, findWorkspace, lockDemoLoad, type Db, type DbOrTx, type Tx } from '@raffle/db';
import { demoKeysOf, type DemoKeys } from './demo-keys.js';
import { insertDemoWorld } from './load/insert-demo-world.js';
import { playRaffle } from './load/play-raffle.js';
import type { DemoBeacon } from './plan/demo-beacon.js';
import { planDemoDataset, type DemoPlan } from './plan/demo-plan.js';

async function demoWorkspaceExists(tx: DbOrTx, plan: DemoPlan): Promise<boolean> {
  return (await findWorkspace(tx, plan.orgs.workspaces.nebula.id)) !== null;
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
  await deleteEventsAddressedTo(tx, { workspaceIds: Object.values(plan.orgs.workspaces).map((w) => w.id), userIds: plan.users.map((u) => u.id) });
}

/**
 * Loads the demo dataset in one transaction, unless it is already there; either way returns
 * the demo keys, which are the same on every load. Its raffles close on `beacon`'s chain (give
 * the running local beacon's identity, so the demo's proofs name the chain the services pin) and
 * draw with its rounds, signed here with its key: they all lie in the past, long published.
 */
export async function loadDemoDataset(db: Db, beacon?: DemoBeacon): Promise<DemoKeys> {
  const plan = planDemoDataset(beacon);
  const rounds = localRoundSigner(plan.beacon);
  await db.transaction(async (tx) => {
    await lockDemoLoad(tx);
    if (await demoWorkspaceExists(tx, plan)) return;
    await insertDemoWorld(tx, plan);
    for (const raffle of plan.raffles) await playRaffle(nestedDb(tx), raffle, rounds);
    await dropDemoEvents(tx, plan);
  });
  return demoKeysOf(plan);
}
