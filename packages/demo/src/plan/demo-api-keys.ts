import { buildApiKey, PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES, type ApiKeyKind } from '@raffle/contracts';
import type { NewApiKey } from '@raffle/db';
import { daysBeforeDemoNow } from './demo-clock.js';
import { demoBase62, demoId } from './demo-derive.js';
import type { DemoWorkspace } from './demo-organisations.js';
import type { DemoPerson } from './demo-people.js';

export type DemoKeyStatus = 'active' | 'revoked' | 'expired';

/** One demo key as the start command prints it. */
export type DemoApiKey = {
  id: string;
  name: string;
  kind: ApiKeyKind;
  /** The owner of a personal key; the creator of a workspace key. */
  owner: { userId: string; handle: string };
  workspace: { id: string; slug: string } | null;
  scopes: string[];
  status: DemoKeyStatus;
  apiKey: string;
};

type KeyPlan = { label: string; name: string; kind: ApiKeyKind; owner: DemoPerson; workspace: DemoWorkspace | null; scopes: readonly string[]; status: DemoKeyStatus };

function keyPlans(people: { alice: DemoPerson; bob: DemoPerson; carol: DemoPerson }, workspaces: { nebula: DemoWorkspace; kite: DemoWorkspace }): KeyPlan[] {
  const { alice, bob, carol } = people;
  const personal = (label: string, name: string, scopes: readonly string[], status: DemoKeyStatus, owner: DemoPerson = alice): KeyPlan => ({
    label,
    name,
    kind: 'personal',
    owner,
    workspace: null,
    scopes,
    status,
  });
  // Workspace keys are created by the workspace's owner, as only owners and admins may.
  const workspaceKeys = (ws: DemoWorkspace, owner: DemoPerson): KeyPlan[] => [
    { label: `${ws.slug}-all`, name: `${ws.name}: all scopes`, kind: 'workspace', owner, workspace: ws, scopes: WORKSPACE_API_SCOPES, status: 'active' },
    { label: `${ws.slug}-raffles`, name: `${ws.name}: raffles only`, kind: 'workspace', owner, workspace: ws, scopes: ['raffles:read'], status: 'active' },
  ];
  return [
    personal('alice-all', 'Alice: all scopes', PERSONAL_API_SCOPES, 'active'),
    personal('alice-profile', 'Alice: profile only', ['profile:read'], 'active'),
    personal('alice-revoked', 'Alice: revoked', PERSONAL_API_SCOPES, 'revoked'),
    personal('alice-expired', 'Alice: expired', PERSONAL_API_SCOPES, 'expired'),
    // Bob holds no Nebula Pass: his key shows the token-gated raffle refusing an entrant.
    personal('bob-all', 'Bob: all scopes', PERSONAL_API_SCOPES, 'active', bob),
    ...workspaceKeys(workspaces.nebula, alice),
    ...workspaceKeys(workspaces.kite, carol),
  ];
}

const KEY_CREATED_AT = daysBeforeDemoNow(45);

/** The keys, each with a plaintext fixed by its label, and the rows that store them. */
export function demoApiKeys(people: { alice: DemoPerson; bob: DemoPerson; carol: DemoPerson }, workspaces: { nebula: DemoWorkspace; kite: DemoWorkspace }) {
  return keyPlans(people, workspaces).map((plan) => {
    const apiKey = buildApiKey(plan.kind, demoBase62(`api-key:${plan.label}`, 30));
    const id = demoId('apiKey', plan.label, KEY_CREATED_AT);
    const listing: DemoApiKey = {
      id,
      name: plan.name,
      kind: plan.kind,
      owner: { userId: plan.owner.id, handle: plan.owner.handle },
      workspace: plan.workspace ? { id: plan.workspace.id, slug: plan.workspace.slug } : null,
      scopes: [...plan.scopes],
      status: plan.status,
      apiKey,
    };
    const row: NewApiKey = {
      id,
      plaintext: apiKey,
      kind: plan.kind,
      userId: plan.owner.id,
      workspaceId: plan.workspace?.id ?? null,
      name: plan.name,
      scopes: [...plan.scopes],
      createdAt: KEY_CREATED_AT,
      revokedAt: plan.status === 'revoked' ? daysBeforeDemoNow(20) : null,
      expiresAt: plan.status === 'expired' ? daysBeforeDemoNow(5) : null,
    };
    return { listing, row };
  });
}
