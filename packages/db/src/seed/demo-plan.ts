import type { WinRaffleRow } from '../render/win.js';
import type { NewRaffle } from '../writes/raffles.js';
import { demoId } from './demo-derive.js';
import { demoApiKeys } from './demo-api-keys.js';
import { entryWindow, planEntries, type PlannedEntry } from './demo-entries.js';
import { demoOrganisations } from './demo-organisations.js';
import { entrants, namedPeople } from './demo-people.js';
import { demoRaffleCatalogue, type DemoRaffleSpec } from './demo-raffle-catalogue.js';
import { planWins, type PlannedWin } from './demo-wins.js';
import { raffleTimeline } from './raffle-timeline.js';
import { drawCommitment } from '@raffle/sdk';

export type PlannedRaffle = {
  spec: DemoRaffleSpec;
  row: NewRaffle & { id: string };
  winRaffle: WinRaffleRow;
  entries: PlannedEntry[];
  wins: PlannedWin[];
};

function planRaffle(spec: DemoRaffleSpec, workspaceRoles: ReadonlyMap<string, string>): PlannedRaffle {
  const t = raffleTimeline(spec.status, spec.createdAt);
  const id = demoId('raffle', spec.slug, spec.createdAt);
  const entries = planEntries(spec, { id, slug: spec.slug }, entryWindow(t), workspaceRoles);
  const { wins, draw } = planWins(spec, id, t, entries);
  // The seed and its commitment exist from publish on; the digest only once a draw fixed the entries.
  const published = t.publishedAt !== null;
  const row: PlannedRaffle['row'] = {
    id,
    workspaceId: spec.workspace.id,
    slug: spec.slug,
    title: spec.title,
    description: spec.description,
    mechanic: spec.mechanic,
    allocationType: spec.allocationType,
    visibility: spec.visibility,
    status: spec.status,
    spots: spec.spots,
    chain: spec.chain,
    allowAutoEntry: spec.allowAutoEntry,
    requirements: spec.requirements,
    settings: spec.settings,
    canonicalProjectId: spec.canonicalProject?.id ?? null,
    startsAt: t.startsAt,
    endsAt: t.endsAt,
    publishedAt: t.publishedAt,
    openedAt: t.openedAt,
    closedAt: t.closedAt,
    drawnAt: t.drawnAt,
    finalizedAt: t.finalizedAt,
    cancelledAt: t.cancelledAt,
    drawSeed: published ? draw.seed.toString('hex') : null,
    drawCommitment: published ? drawCommitment(draw.seed) : null,
    entriesDigest: draw.entriesDigest,
    createdAt: spec.createdAt,
    updatedAt: t.lastChangeAt,
  };
  const winRaffle: WinRaffleRow = {
    id,
    slug: spec.slug,
    title: spec.title,
    mechanic: spec.mechanic,
    allocationType: spec.allocationType,
    chain: spec.chain,
    workspaceId: spec.workspace.id,
  };
  return { spec, row, winRaffle, entries, wins };
}

/** The whole demo world as rows to insert: computed, never random, so every load is the same. */
export function planDemoDataset() {
  const named = namedPeople();
  const crowd = entrants();
  const people = { ...named, entrants: crowd };
  const orgs = demoOrganisations(people);

  const rolesByWorkspace = new Map<string, Map<string, string>>();
  for (const m of orgs.memberships) {
    const roles = rolesByWorkspace.get(m.workspaceId) ?? new Map<string, string>();
    roles.set(m.userId, m.role);
    rolesByWorkspace.set(m.workspaceId, roles);
  }
  const raffles = demoRaffleCatalogue(people, orgs).map((spec) =>
    planRaffle(spec, rolesByWorkspace.get(spec.workspace.id) ?? new Map()),
  );

  return {
    named,
    users: [named.alice, named.bob, named.carol, ...crowd],
    orgs,
    raffles,
    apiKeys: demoApiKeys(named, orgs.workspaces),
  };
}

export type DemoPlan = ReturnType<typeof planDemoDataset>;
