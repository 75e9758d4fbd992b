import type { Tenant } from './tenant.js';

/**
 * A concrete URL for a route template, filled from the tenant's own resources. Reads address the
 * finalized raffle (entries, wins, a draw proof and a published allowlist exist); the entry
 * actions the open one; naming an allowlist wallet (PUT) the raffle whose wallet deadline is ahead.
 */
export function concreteUrl(template: string, tenant: Tenant, method = 'GET'): string {
  const values: Record<string, string> = {
    workspaceId: tenant.workspace.id,
    raffleId: tenant.finalized.id,
    projectId: tenant.projects[0]!.id,
    slug: method === 'GET' ? tenant.finalized.slug : method === 'PUT' ? tenant.naming.slug : tenant.entrable.slug,
  };
  return template.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = values[name];
    if (!value) throw new Error(`no test value for path parameter :${name} in ${template}`);
    return value;
  });
}

/** The body a route that takes one needs to succeed: naming the owner's verified mint wallet. */
export function concreteBody(method: string): ((tenant: Tenant) => Record<string, string>) | undefined {
  return method === 'PUT' ? (tenant) => ({ address: tenant.ownerWallet }) : undefined;
}

/**
 * What a request that passes authentication answers. Reads answer 200. The entry actions change
 * state, so only the first call of a test run succeeds (201 entered, 200 withdrawn); the matrix's
 * repeated calls get the domain's 409 (already entered, no longer withdrawable), never a 401/403.
 * Naming the same wallet again answers 200 each time.
 */
export function authorizedStatuses(method: string): readonly number[] {
  if (method === 'POST') return [201, 409];
  if (method === 'DELETE') return [200, 409];
  return [200];
}
