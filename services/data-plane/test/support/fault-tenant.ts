import { seedLoadTenant } from '@raffle/service-kit/testing/faults';
import type { Database } from '@raffle/db';
import { registerSecret } from './log-scan.js';

export type FaultTenant = Awaited<ReturnType<typeof seedFaultTenant>>;

/**
 * The kit's load tenant (entrants with personal keys, open unlisted raffles, a workspace key), its
 * keys registered with this project's log scan, and its raffles by slug as the fault tests use them.
 */
export async function seedFaultTenant(database: Database, options: { entrants: number; raffles: number }) {
  const tenant = await seedLoadTenant(database, { label: 'fault', ...options });
  return {
    tag: tenant.tag,
    workspace: tenant.workspace,
    workspaceKey: registerSecret(tenant.workspaceKey),
    raffleSlugs: tenant.raffles.map((r) => r.slug),
    entrants: tenant.entrants.map((e) => ({ userId: e.userId, apiKey: registerSecret(e.apiKey) })),
  };
}
