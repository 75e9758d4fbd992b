import { insertUser, type Database } from '@raffle/db';
import { seedLoadTenant } from '@raffle/service-kit/testing/faults';

export type TopologyTenant = Awaited<ReturnType<typeof seedTopologyTenant>>;

/**
 * What the cluster-topology load needs: the kit's load tenant (entrants with personal keys, open
 * unlisted raffles, a workspace key for the workspace's lists and its owner, who subscribes a
 * webhook endpoint), and a key holder whose keys get revoked, a user of the management API.
 */
export async function seedTopologyTenant(database: Database, options: { entrants: number; raffles: number }) {
  const tenant = await seedLoadTenant(database, { label: 'topology', ...options });
  // Old enough an account to make API keys on the management API.
  const holder = await insertUser(database.db, { handle: `topology-holder-${tenant.tag}`, createdAt: new Date('2020-01-01T00:00:00Z') });
  return {
    workspaceId: tenant.workspace.id,
    ownerId: tenant.owner.id,
    holderId: holder.id,
    workspaceKey: tenant.workspaceKey,
    raffles: tenant.raffles,
    entrants: tenant.entrants,
  };
}
