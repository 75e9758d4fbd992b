import type { DemoApiKey } from './plan/demo-api-keys.js';
import type { DemoPlan } from './plan/demo-plan.js';

export type { DemoApiKey, DemoKeyStatus } from './plan/demo-api-keys.js';

export type DemoRaffleRef = { id: string; slug: string; workspaceId: string; status: string; mechanic: string; visibility: string };

/** What a developer needs to try the API against the demo data. */
export type DemoKeys = {
  keys: DemoApiKey[];
  users: Record<'alice' | 'bob' | 'carol', { id: string; handle: string }>;
  workspaces: Record<'nebula' | 'kite', { id: string; slug: string; name: string }>;
  /** By purpose: `finalizedDraw` has the big entry list and winners, `openForEntry` accepts alice's entry. */
  raffles: Record<string, DemoRaffleRef>;
};

/** The keys and ids, all fixed by the plan: the same on every load, whether or not it wrote anything. */
export function demoKeysOf(plan: DemoPlan): DemoKeys {
  const { alice, bob, carol } = plan.named;
  const { nebula, kite } = plan.orgs.workspaces;
  const user = (p: typeof alice) => ({ id: p.id, handle: p.handle });
  const workspace = (w: typeof nebula) => ({ id: w.id, slug: w.slug, name: w.name });
  return {
    keys: plan.apiKeys.map((k) => k.listing),
    users: { alice: user(alice), bob: user(bob), carol: user(carol) },
    workspaces: { nebula: workspace(nebula), kite: workspace(kite) },
    raffles: Object.fromEntries(
      plan.raffles.map(({ spec, id }) => [
        spec.label,
        { id, slug: spec.slug, workspaceId: spec.workspace.id, status: spec.status, mechanic: spec.mechanic, visibility: spec.visibility },
      ]),
    ),
  };
}
