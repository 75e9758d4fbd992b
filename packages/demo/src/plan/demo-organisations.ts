import type { WorkspaceRole } from '@raffle/contracts';
import type { NewProject, NewWorkspace } from '@raffle/db';
import { daysBeforeDemoNow } from './demo-clock.js';
import { demoId } from './demo-derive.js';
import type { DemoPerson } from './demo-people.js';

export type DemoWorkspace = Required<Pick<NewWorkspace, 'id' | 'slug' | 'name' | 'createdAt'>> & { logoUrl: string | null };
export type DemoMembership = { workspaceId: string; userId: string; role: WorkspaceRole };
export type DemoProject = NewProject & { id: string; createdAt: Date };

function workspace(slug: string, name: string, logoUrl: string | null, createdAt: Date): DemoWorkspace {
  return { id: demoId('workspace', slug, createdAt), slug, name, logoUrl, createdAt };
}

function project(ws: DemoWorkspace, slug: string, fields: Omit<NewProject, 'workspaceId' | 'slug' | 'id'>): DemoProject {
  const createdAt = fields.createdAt ?? ws.createdAt;
  return { ...fields, id: demoId('project', slug, createdAt), workspaceId: ws.id, slug, createdAt };
}

/**
 * Two workspaces. Nebula Labs (owned by alice) runs the raffles in every early status;
 * Kite Collective (owned by carol) runs the drawn and finalized ones, which alice and bob enter.
 */
export function demoOrganisations(people: { alice: DemoPerson; bob: DemoPerson; carol: DemoPerson; entrants: DemoPerson[] }) {
  const { alice, bob, carol, entrants } = people;
  const nebula = workspace('nebula-labs', 'Nebula Labs', 'https://cdn.example.com/nebula/logo.png', daysBeforeDemoNow(200));
  const kite = workspace('kite-collective', 'Kite Collective', null, daysBeforeDemoNow(190));

  const memberships: DemoMembership[] = [
    { workspaceId: nebula.id, userId: alice.id, role: 'owner' },
    { workspaceId: nebula.id, userId: bob.id, role: 'admin' },
    { workspaceId: nebula.id, userId: entrants[0]!.id, role: 'member' },
    { workspaceId: kite.id, userId: carol.id, role: 'owner' },
    { workspaceId: kite.id, userId: entrants[2]!.id, role: 'admin' },
    { workspaceId: kite.id, userId: alice.id, role: 'member' },
    { workspaceId: kite.id, userId: bob.id, role: 'member' },
    // Entrants 4 to 15 are Kite's community: the only people who may enter its private raffle.
    ...entrants.slice(3, 15).map((e) => ({ workspaceId: kite.id, userId: e.id, role: 'member' as const })),
  ];

  const projects = {
    nebulaGenesis: project(nebula, 'nebula-genesis', {
      name: 'Nebula Genesis',
      logoUrl: 'https://cdn.example.com/nebula/genesis.png',
      description: 'The first Nebula collection: 5,000 generative star maps.',
      websiteUrl: 'https://nebula.example.com/genesis',
      chain: 'ethereum',
      createdAt: daysBeforeDemoNow(198),
    }),
    nebulaTools: project(nebula, 'nebula-tools', {
      name: 'Nebula Tools',
      description: 'Open-source wallet tooling for Solana developers.',
      websiteUrl: 'https://nebula.example.com/tools',
      chain: 'solana',
      createdAt: daysBeforeDemoNow(150),
    }),
    kiteGenesis: project(kite, 'kite-genesis', {
      name: 'Kite Genesis',
      logoUrl: 'https://cdn.example.com/kite/genesis.png',
      description: 'Hand-drawn kites, one per collector.',
      websiteUrl: 'https://kite.example.com',
      chain: 'ethereum',
      createdAt: daysBeforeDemoNow(185),
    }),
    kiteMerch: project(kite, 'kite-merch', { name: 'Kite Merch', createdAt: daysBeforeDemoNow(120) }),
  };

  return { workspaces: { nebula, kite }, memberships, projects };
}

export type DemoOrganisations = ReturnType<typeof demoOrganisations>;
