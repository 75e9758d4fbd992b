import { randomBytes } from 'node:crypto';
import { PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES } from '@raffle/contracts';
import { addWorkspaceMember, insertApiKey, insertRaffle, insertUser, insertWorkspace, type Database } from '@raffle/db';

export type TopologyTenant = Awaited<ReturnType<typeof seedTopologyTenant>>;

/**
 * What the cluster-topology load needs: entrants with personal keys and open raffles, so every
 * write is a fresh (entrant, raffle) pair whose entry and event can be looked up afterwards; a
 * workspace key for the workspace's lists; an owner (to subscribe a webhook endpoint) and a key
 * holder (whose keys get revoked), both as users of the management API. Raffles are unlisted and
 * requirement-free, so entering needs nothing else.
 */
export async function seedTopologyTenant(database: Database, options: { entrants: number; raffles: number }) {
  const tag = randomBytes(4).toString('hex');
  return database.db.transaction(async (tx) => {
    const owner = await insertUser(tx, { handle: `topology-owner-${tag}` });
    // Old enough an account to make API keys on the management API.
    const holder = await insertUser(tx, { handle: `topology-holder-${tag}`, createdAt: new Date('2020-01-01T00:00:00Z') });
    const workspace = await insertWorkspace(tx, { slug: `topology-${tag}`, name: `Topology ${tag}` });
    await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: owner.id, role: 'owner' });
    const { apiKey: workspaceKey } = await insertApiKey(tx, { kind: 'workspace', userId: owner.id, workspaceId: workspace.id, name: 'topology load', scopes: [...WORKSPACE_API_SCOPES] });

    const raffles: { id: string; slug: string }[] = [];
    for (let i = 0; i < options.raffles; i++) {
      const opened = new Date(Date.now() - 60_000);
      const raffle = await insertRaffle(tx, {
        workspaceId: workspace.id,
        slug: `topology-${i}-${tag}`,
        title: `Topology raffle ${i}`,
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
      const user = await insertUser(tx, { handle: `topology-entrant-${i}-${tag}` });
      const { apiKey } = await insertApiKey(tx, { kind: 'personal', userId: user.id, name: 'topology load', scopes: [...PERSONAL_API_SCOPES] });
      entrants.push({ userId: user.id, apiKey });
    }
    return { workspaceId: workspace.id, ownerId: owner.id, holderId: holder.id, workspaceKey, raffles, entrants };
  });
}
