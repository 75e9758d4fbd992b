import type { Tenant } from './tenant.js';

/** A concrete URL for a route template, filled from the tenant's own resources. */
export function concreteUrl(template: string, tenant: Tenant): string {
  const values: Record<string, string> = {
    workspaceId: tenant.workspace.id,
    raffleId: tenant.finalized.id,
    projectId: tenant.projects[0]!.id,
    slug: tenant.finalized.slug,
  };
  return template.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = values[name];
    if (!value) throw new Error(`no test value for path parameter :${name} in ${template}`);
    return value;
  });
}
