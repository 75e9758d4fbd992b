import type { DemoPerson } from './demo-people.js';
import type { DemoRaffleSpec } from './demo-raffle-catalogue.js';

export type DemoCommunityRole = { workspaceId: string; userId: string; role: string; createdAt: Date };

/**
 * The community_roles rows `holds_role` reads: every role a person holds, granted in the
 * workspace of each raffle that requires it, from when both the person and the workspace exist.
 */
export function demoCommunityRoles(people: DemoPerson[], raffles: DemoRaffleSpec[]): DemoCommunityRole[] {
  const granted = new Map<string, DemoCommunityRole>();
  for (const raffle of raffles) {
    for (const req of raffle.requirements.filter((r) => r.type === 'holds_role')) {
      const role = String(req.params.role);
      for (const person of people.filter((p) => p.roles.includes(role))) {
        const createdAt = new Date(Math.max(person.createdAt.getTime(), raffle.workspace.createdAt.getTime()));
        granted.set(`${raffle.workspace.id}:${person.id}:${role}`, { workspaceId: raffle.workspace.id, userId: person.id, role, createdAt });
      }
    }
  }
  return [...granted.values()];
}
