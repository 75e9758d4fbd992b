import { randomBytes } from 'node:crypto';
import { PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES } from '@raffle/contracts';
import { addWorkspaceMember, insertApiKey, insertRaffle, insertUser, insertWorkspace, type Database } from '@raffle/db';

export type LoadTenant = Awaited<ReturnType<typeof seedLoadTenant>>;

/**
 * What a fault load needs: entrants with personal keys and open raffles, so every write is a fresh
 * (entrant, raffle) pair whose entry can be looked up afterwards; a workspace key for the
 * workspace's lists. Raffles are unlisted and requirement-free, so entering needs nothing else.
 * `label` names every row (handles, slugs, key names), so a failing run says whose they are.
 */
export async function seedLoadTenant(database: Database, options: { label: string; entrants: number; raffles: number }) {
  const { label } = options;
  const tag = randomBytes(4).toString('hex');
  return database.db.transaction(async (tx) => {
    const owner = await insertUser(tx, { handle: `${label}-owner-${tag}` });
    const workspace = await insertWorkspace(tx, { slug: `${label}-${tag}`, name: `${label} ${tag}` });
    await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: owner.id, role: 'owner' });
    const { apiKey: workspaceKey } = await insertApiKey(tx, { kind: 'workspace', userId: owner.id, workspaceId: workspace.id, name: `${label} load`, scopes: [...WORKSPACE_API_SCOPES] });

    const raffles: { id: string; slug: string }[] = [];
    for (let i = 0; i < options.raffles; i++) {
      const opened = new Date(Date.now() - 60_000);
      const raffle = await insertRaffle(tx, {
        workspaceId: workspace.id,
        slug: `${label}-${i}-${tag}`,
        title: `${label} raffle ${i}`,
        mechanic: 'raffle',
        allocationType: 'airdrop',
        visibility: 'unlisted',
        status: 'open',
        spots: 1,
        publishedAt: opened,
        openedAt: opened,
      });
      raffles.push({ id: raffle.id, slug: raffle.slug });
    }

    const entrants: { userId: string; apiKey: string }[] = [];
    for (let i = 0; i < options.entrants; i++) {
      const user = await insertUser(tx, { handle: `${label}-entrant-${i}-${tag}` });
      const { apiKey } = await insertApiKey(tx, { kind: 'personal', userId: user.id, name: `${label} load`, scopes: [...PERSONAL_API_SCOPES] });
      entrants.push({ userId: user.id, apiKey });
    }
    return { tag, owner, workspace, workspaceKey, raffles, entrants };
  });
}
