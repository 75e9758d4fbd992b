import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.js';
import { workspaces } from '../schema/workspaces.js';
import { insertApiKey } from '../writes/api-keys.js';
import { insertEntry } from '../writes/entries.js';
import { insertProject } from '../writes/projects.js';
import { insertRaffle } from '../writes/raffles.js';
import { insertUser } from '../writes/users.js';
import { insertWin } from '../writes/wins.js';
import { addWorkspaceMember, insertWorkspace } from '../writes/workspaces.js';
import type { DemoApiKey } from './demo-api-keys.js';
import { planDemoDataset, type DemoPlan } from './demo-plan.js';

export type { DemoApiKey, DemoKeyStatus } from './demo-api-keys.js';

export type DemoRaffleRef = { id: string; slug: string; workspaceId: string; status: string; mechanic: string; visibility: string };

/** What a developer needs to try the API against the demo data. */
export type DemoKeys = {
  keys: DemoApiKey[];
  users: Record<'alice' | 'bob' | 'carol', { id: string; handle: string }>;
  workspaces: Record<'nebula' | 'kite', { id: string; slug: string; name: string }>;
  /** By purpose: `finalizedDraw` has the big entry list and winners, `openForEntry` accepts alice's entry. */
  raffles: Record<string, DemoRaffleRef>;
};

/** Any fixed number: it only has to differ from the other advisory locks of the platform. */
const DEMO_LOAD_LOCK = 72707171;

function describe(plan: DemoPlan): DemoKeys {
  const { alice, bob, carol } = plan.named;
  const { nebula, kite } = plan.orgs.workspaces;
  const user = (p: typeof alice) => ({ id: p.id, handle: p.handle });
  const workspace = (w: typeof nebula) => ({ id: w.id, slug: w.slug, name: w.name });
  return {
    keys: plan.apiKeys.map((k) => k.listing),
    users: { alice: user(alice), bob: user(bob), carol: user(carol) },
    workspaces: { nebula: workspace(nebula), kite: workspace(kite) },
    raffles: Object.fromEntries(
      plan.raffles.map(({ spec, row }) => [
        spec.label,
        { id: row.id, slug: row.slug, workspaceId: row.workspaceId, status: spec.status, mechanic: spec.mechanic, visibility: spec.visibility },
      ]),
    ),
  };
}

async function demoWorkspaceExists(tx: DbOrTx, plan: DemoPlan): Promise<boolean> {
  const [row] = await tx
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.id, plan.orgs.workspaces.nebula.id));
  return row !== undefined;
}

export async function isDemoDatasetLoaded(db: DbOrTx): Promise<boolean> {
  return demoWorkspaceExists(db, planDemoDataset());
}

async function insertPlan(tx: DbOrTx, plan: DemoPlan): Promise<void> {
  for (const user of plan.users) await insertUser(tx, user);
  for (const ws of Object.values(plan.orgs.workspaces)) await insertWorkspace(tx, ws);
  for (const membership of plan.orgs.memberships) await addWorkspaceMember(tx, membership);
  for (const project of Object.values(plan.orgs.projects)) await insertProject(tx, project);
  for (const raffle of plan.raffles) {
    await insertRaffle(tx, raffle.row);
    for (const entry of raffle.entries) await insertEntry(tx, entry);
    for (const win of raffle.wins) await insertWin(tx, win, raffle.winRaffle);
  }
  for (const key of plan.apiKeys) await insertApiKey(tx, key.row);
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
    await insertPlan(tx, plan);
  });
  return describe(plan);
}
