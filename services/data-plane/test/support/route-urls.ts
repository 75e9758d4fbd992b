import type { Tenant } from './tenant.js';

/**
 * A concrete URL for a route template, filled from the tenant's own resources. Reads address the
 * finalized raffle (entries, wins and a draw proof exist); the entry actions the open one.
 */
export function concreteUrl(template: string, tenant: Tenant, method = 'GET'): string {
  const values: Record<string, string> = {
    workspaceId: tenant.workspace.id,
    raffleId: tenant.finalized.id,
    projectId: tenant.projects[0]!.id,
    slug: method === 'GET' ? tenant.finalized.slug : tenant.entrable.slug,
  };
  return template.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = values[name];
    if (!value) throw new Error(`no test value for path parameter :${name} in ${template}`);
    return value;
  });
}

/**
 * What a request that passes authentication answers. Reads answer 200. The entry actions change
 * state, so only the first call of a test run succeeds (201 entered, 200 withdrawn); the matrix's
 * repeated calls get the domain's 409 (already entered, no longer withdrawable), never a 401/403.
 */
export function authorizedStatuses(method: string): readonly number[] {
  if (method === 'POST') return [201, 409];
  if (method === 'DELETE') return [200, 409];
  return [200];
}
