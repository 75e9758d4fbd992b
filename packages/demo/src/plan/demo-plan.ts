import type { CreateRaffleBody } from '@raffle/contracts';
import type { BeaconChain } from '@raffle/beacon';
import { DEFAULT_DEMO_BEACON, demoBeaconChain, demoDrawRound, type DemoBeacon } from './demo-beacon.js';
import { DEMO_NOW } from './demo-clock.js';
import { demoId } from './demo-derive.js';
import { demoApiKeys } from './demo-api-keys.js';
import { demoCommunityRoles } from './demo-community-roles.js';
import { entryWindow, planEntries, type PlannedEntry } from './demo-entries.js';
import { demoOrganisations, type DemoOrganisations } from './demo-organisations.js';
import { entrants, namedPeople, type DemoPerson } from './demo-people.js';
import { demoRaffleCatalogue, type DemoRaffleSpec } from './demo-raffle-catalogue.js';
import { planDraw, type DrawPlan } from './demo-wins.js';
import { raffleTimeline, type RaffleTimeline } from './raffle-timeline.js';

export type PlannedRaffle = {
  spec: DemoRaffleSpec;
  /** Fixed by the slug, so the printed ids are the same on every load. */
  id: string;
  timeline: RaffleTimeline;
  /** What the team sends to create the draft. */
  body: CreateRaffleBody;
  entries: PlannedEntry[];
  /** Members who leave the raffle's workspace between close and draw. */
  leavers: DemoPerson[];
  draw: DrawPlan;
};

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function createBody(spec: DemoRaffleSpec, t: RaffleTimeline): CreateRaffleBody {
  return {
    slug: spec.slug,
    title: spec.title,
    description: spec.description,
    mechanic: spec.mechanic,
    allocationType: spec.allocationType,
    visibility: spec.visibility,
    spots: spec.spots,
    chain: spec.chain,
    allowAutoEntry: spec.allowAutoEntry,
    requirements: spec.requirements,
    settings: spec.settings,
    canonicalProjectId: spec.canonicalProject?.id ?? null,
    startsAt: iso(t.startsAt),
    endsAt: iso(t.endsAt),
  };
}

function membersOf(orgs: DemoOrganisations, workspaceId: string): Set<string> {
  return new Set(orgs.memberships.filter((m) => m.workspaceId === workspaceId).map((m) => m.userId));
}

function planRaffle(spec: DemoRaffleSpec, orgs: DemoOrganisations, beacon: DemoBeacon, chain: BeaconChain): PlannedRaffle {
  const t = raffleTimeline(spec.status, spec.createdAt);
  const members = membersOf(orgs, spec.workspace.id);
  const leavers = spec.leaveBeforeDraw ?? [];
  if (leavers.length > 0 && !t.drawnAt) throw new Error(`${spec.slug} is never drawn, so nobody can leave before its draw`);

  const entries = planEntries(spec, entryWindow(t), (p) => members.has(p.id));
  const atDraw = { at: t.drawnAt ?? DEMO_NOW, isMember: (p: DemoPerson) => members.has(p.id) && !leavers.includes(p) };
  return {
    spec,
    id: demoId('raffle', spec.slug, spec.createdAt),
    timeline: t,
    body: createBody(spec, t),
    entries,
    leavers,
    draw: planDraw(spec, t, entries, atDraw, t.closedAt ? demoDrawRound(beacon, chain, t.closedAt) : null),
  };
}

/**
 * The whole demo world as a script to play: computed, never random, so every load on one beacon
 * is the same. Its raffles close on `beacon`'s chain, and their draws are planned with its rounds.
 */
export function planDemoDataset(beacon: DemoBeacon = DEFAULT_DEMO_BEACON) {
  const chain = demoBeaconChain(beacon);
  const named = namedPeople();
  const crowd = entrants();
  const people = { ...named, entrants: crowd };
  const users = [named.alice, named.bob, named.carol, ...crowd];
  const orgs = demoOrganisations(people);
  const catalogue = demoRaffleCatalogue(people, orgs);

  return {
    named,
    users,
    orgs,
    communityRoles: demoCommunityRoles(users, catalogue),
    beacon,
    chain,
    raffles: catalogue.map((spec) => planRaffle(spec, orgs, beacon, chain)),
    apiKeys: demoApiKeys(named, orgs.workspaces),
  };
}

export type DemoPlan = ReturnType<typeof planDemoDataset>;
