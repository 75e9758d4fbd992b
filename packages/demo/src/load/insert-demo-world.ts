import { addWorkspaceMember, insertApiKey, insertCommunityRoles, insertProject, insertUser, insertWorkspace, type DbOrTx } from '@raffle/db';
import type { DemoPlan } from '../plan/demo-plan.js';

/**
 * Everything without a lifecycle of its own, inserted as rows: people and their wallets,
 * workspaces, memberships, projects, community roles and API keys. Raffles, entries and wins
 * are not here: they go through the domain (play-raffle.ts).
 */
export async function insertDemoWorld(tx: DbOrTx, plan: DemoPlan): Promise<void> {
  for (const user of plan.users) await insertUser(tx, user);
  for (const ws of Object.values(plan.orgs.workspaces)) await insertWorkspace(tx, ws);
  for (const membership of plan.orgs.memberships) await addWorkspaceMember(tx, membership);
  for (const project of Object.values(plan.orgs.projects)) await insertProject(tx, project);
  await insertCommunityRoles(tx, plan.communityRoles);
  for (const key of plan.apiKeys) await insertApiKey(tx, key.row);
}
