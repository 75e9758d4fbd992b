import { randomBytes } from 'node:crypto';
import { PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES } from '@raffle/contracts';
import { addWorkspaceMember, insertApiKey, insertRaffle, insertUser, insertWorkspace, type Database } from '@raffle/db';
import { registerSecret } from './log-scan.js';

export type FaultTenant = Awaited<ReturnType<typeof seedFaultTenant>>;

/**
 * What a fault load needs: many entrants with personal keys and many open raffles, so every write
 * is a fresh (entrant, raffle) pair whose entry can be looked up afterwards; a workspace key for
 * workspace reads. Raffles are unlisted and requirement-free, so entering needs nothing else.
 */
export async function seedFaultTenant(database: Database, options: { entrants: number; raffles: number }) {
  const tag = randomBytes(4).toString('hex');
  return database.db.transaction(async (tx) => {
    const owner = await insertUser(tx, { handle: `fault-owner-${tag}` });
    const workspace = await insertWorkspace(tx, { slug: `fault-${tag}`, name: `Faults ${tag}` });
    await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: owner.id, role: 'owner' });
    const { apiKey: workspaceKey } = await insertApiKey(tx, { kind: 'workspace', userId: owner.id, workspaceId: workspace.id, name: 'fault load', scopes: [...WORKSPACE_API_SCOPES] });

    const raffleSlugs: string[] = [];
    for (let i = 0; i < options.raffles; i++) {
      const opened = new Date(Date.now() - 60_000);
      const raffle = await insertRaffle(tx, {
        workspaceId: workspace.id,
        slug: `fault-${i}-${tag}`,
        title: `Fault raffle ${i}`,
        mechanic: 'raffle',
        allocationType: 'airdrop',
        visibility: 'unlisted',
        status: 'open',
        spots: 1,
        publishedAt: opened,
        openedAt: opened,
      });
      raffleSlugs.push(raffle.slug);
    }

    const entrants: { userId: string; apiKey: string }[] = [];
    for (let i = 0; i < options.entrants; i++) {
      const user = await insertUser(tx, { handle: `fault-entrant-${i}-${tag}` });
      const { apiKey } = await insertApiKey(tx, { kind: 'personal', userId: user.id, name: 'fault load', scopes: [...PERSONAL_API_SCOPES] });
      entrants.push({ userId: user.id, apiKey: registerSecret(apiKey) });
    }
    return { tag, workspace, workspaceKey: registerSecret(workspaceKey), raffleSlugs, entrants };
  });
}
