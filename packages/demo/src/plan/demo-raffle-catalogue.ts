import type { AllocationType, EntrySource, RaffleMechanic, RaffleRequirementInput, RaffleStatus, RaffleVisibility } from '@raffle/contracts';
import { DEFAULT_RAFFLE_SETTINGS, type schema } from '@raffle/db';
import { daysBeforeDemoNow } from './demo-clock.js';
import type { DemoOrganisations, DemoProject, DemoWorkspace } from './demo-organisations.js';
import type { DemoPerson } from './demo-people.js';
import { DEMO_CHAIN_NAME, DEMO_CONTRACTS, NEBULA_PASS_NAME } from './demo-chain.js';
import { requirements as req } from './demo-requirements.js';

/**
 * What happened to one accepted entry after it was made (withdrawn by the entrant, disqualified by
 * the team), or the source it came through. There is no 'invalid' or 'pending' twist: the domain
 * refuses entries that fail a requirement, so an entry only becomes invalid at the draw's re-check
 * (see `leaveBeforeDraw`).
 */
export type EntryTwist = { status: 'withdrawn' } | { status: 'disqualified'; statusReason: string } | { source: EntrySource };

/** How the raffle's winners came about; the status decides whether they are selected or finalized. */
export type DemoOutcome =
  | { kind: 'none' }
  | {
      kind: 'draw';
      mustWin: DemoPerson[];
      mustLose: DemoPerson[];
      /** A winner disqualified in review, and (when `rerolled`) the reroll that took the position. */
      disqualifiedWinner?: { fromPosition: number; reason: string; rerolled: boolean };
    }
  | { kind: 'arrival' }
  | { kind: 'manual'; winners: DemoPerson[] };

export type DemoRaffleSpec = {
  /** The name DemoKeys lists the raffle under. */
  label: string;
  workspace: DemoWorkspace;
  slug: string;
  title: string;
  description: string | null;
  mechanic: RaffleMechanic;
  allocationType: AllocationType;
  visibility: RaffleVisibility;
  status: RaffleStatus;
  spots: number;
  chain: string | null;
  allowAutoEntry: boolean;
  requirements: RaffleRequirementInput[];
  settings: schema.RaffleSettings;
  canonicalProject: DemoProject | null;
  createdAt: Date;
  /** In arrival order. Those failing a requirement when they arrive are refused, and leave no entry. */
  entrants: DemoPerson[];
  twist?: (person: DemoPerson, index: number) => EntryTwist | undefined;
  /**
   * Entrants who leave the raffle's workspace between close and draw: a `workspace_member`
   * requirement then fails at the draw's re-check, and their entries become invalid.
   */
  leaveBeforeDraw?: DemoPerson[];
  outcome: DemoOutcome;
  /** Per-user delivery states that the docs point at (alice's wins show one of each). */
  deliveryOverrides?: ReadonlyMap<string, { deliveryStatus: 'delivered' | 'processing' | 'pending'; deliveryNote?: string }>;
};

const entrantRange = (crowd: DemoPerson[], from: number, to: number) => crowd.slice(from - 1, to);

/**
 * Together the raffles cover every status, mechanic, allocation type and visibility; the
 * comments say which raffle is the one a curl example or a test relies on.
 */
export function demoRaffleCatalogue(
  people: { alice: DemoPerson; bob: DemoPerson; carol: DemoPerson; entrants: DemoPerson[] },
  orgs: DemoOrganisations,
): DemoRaffleSpec[] {
  const { alice, bob, carol, entrants } = people;
  const { nebula, kite } = orgs.workspaces;
  const { nebulaGenesis, nebulaTools, kiteGenesis, kiteMerch } = orgs.projects;
  const base = { settings: DEFAULT_RAFFLE_SETTINGS, allowAutoEntry: false, description: null, twist: undefined };

  return [
    {
      ...base,
      label: 'draft',
      workspace: nebula,
      slug: 'nebula-beta-testers',
      title: 'Nebula Tools beta testers',
      description: 'Apply to test Nebula Tools before launch. Tell us what you build.',
      mechanic: 'application',
      allocationType: 'custom',
      visibility: 'private',
      status: 'draft',
      spots: 20,
      chain: null,
      requirements: [req.emailVerified(), req.workspaceMember()],
      canonicalProject: null,
      createdAt: daysBeforeDemoNow(6),
      entrants: [],
      outcome: { kind: 'none' },
    },
    {
      ...base,
      label: 'scheduled',
      workspace: nebula,
      slug: 'nebula-season-2-allowlist',
      title: 'Nebula Genesis season 2 allowlist',
      description: 'First come, first served allowlist spots for season 2 of Nebula Genesis.',
      mechanic: 'raffle',
      allocationType: 'allowlist_fcfs',
      visibility: 'public',
      status: 'scheduled',
      spots: 500,
      chain: 'ethereum',
      requirements: [req.walletConnected('ethereum'), req.accountAgeDays(30)],
      settings: { autoDraw: true, autoFinalize: false, excludeFlaggedDuplicates: true, allowlistQuantity: 1, allowlistPublic: false, walletDeadline: null },
      canonicalProject: nebulaGenesis,
      createdAt: daysBeforeDemoNow(20),
      entrants: [],
      outcome: { kind: 'none' },
    },
    {
      ...base,
      label: 'openFcfs',
      workspace: nebula,
      slug: 'nebula-airdrop-wave-1',
      title: 'Nebula Tools airdrop, wave 1',
      description: 'The first 50 verified Solana wallets receive the Nebula Tools launch token.',
      mechanic: 'fcfs',
      allocationType: 'airdrop',
      visibility: 'public',
      status: 'open',
      spots: 50,
      chain: 'solana',
      requirements: [req.walletConnected('solana')],
      canonicalProject: nebulaTools,
      createdAt: daysBeforeDemoNow(30),
      entrants: [carol, ...entrantRange(entrants, 280, 319)],
      outcome: { kind: 'arrival' },
    },
    {
      ...base,
      label: 'closed',
      workspace: nebula,
      slug: 'nebula-hoodie-drop',
      title: 'Nebula hoodie drop',
      mechanic: 'raffle',
      allocationType: 'physical',
      visibility: 'unlisted',
      status: 'closed',
      spots: 10,
      chain: null,
      requirements: [req.holdsRole('og')],
      canonicalProject: null,
      createdAt: daysBeforeDemoNow(40),
      entrants: [carol, ...entrantRange(entrants, 320, 349)],
      outcome: { kind: 'none' },
    },
    {
      ...base,
      label: 'cancelled',
      workspace: nebula,
      slug: 'nebula-launch-party',
      title: 'Nebula launch party guest list',
      description: 'Cancelled: the venue fell through. Entrants were notified by email.',
      mechanic: 'application',
      allocationType: 'custom',
      visibility: 'public',
      status: 'cancelled',
      spots: 30,
      chain: null,
      requirements: [req.emailVerified()],
      canonicalProject: nebulaGenesis,
      createdAt: daysBeforeDemoNow(50),
      entrants: entrantRange(entrants, 350, 355),
      outcome: { kind: 'none' },
    },
    {
      // The big one: hundreds of entries, some withdrawn or disqualified, duplicates, a reroll, finalized winners.
      ...base,
      label: 'finalizedDraw',
      workspace: kite,
      slug: 'kite-genesis-allowlist',
      title: 'Kite Genesis guaranteed allowlist',
      description: '25 guaranteed mint spots for Kite Genesis, drawn verifiably at close.',
      mechanic: 'raffle',
      allocationType: 'allowlist_gtd',
      visibility: 'public',
      status: 'finalized',
      spots: 25,
      chain: 'ethereum',
      requirements: [req.walletConnected('ethereum'), req.accountAgeDays(30), req.emailVerified()],
      settings: { autoDraw: true, autoFinalize: false, excludeFlaggedDuplicates: true, allowlistQuantity: 1, allowlistPublic: false, walletDeadline: null },
      canonicalProject: kiteGenesis,
      createdAt: daysBeforeDemoNow(60),
      entrants: [...entrantRange(entrants, 1, 40), alice, ...entrantRange(entrants, 41, 200), bob, ...entrantRange(entrants, 201, 410)],
      twist: (person, index) => {
        const n = Number(person.handle.split('_').at(-1));
        if (n % 29 === 7) return { status: 'withdrawn' };
        if (n % 83 === 40) return { status: 'disqualified', statusReason: 'Disqualified by the team: automated entry pattern' };
        return index % 5 === 1 ? { source: 'api' } : index % 9 === 4 ? { source: 'import' } : undefined;
      },
      outcome: {
        kind: 'draw',
        mustWin: [alice],
        mustLose: [bob],
        disqualifiedWinner: { fromPosition: 7, reason: 'Disqualified in review: wallet linked to a sybil cluster', rerolled: true },
      },
      deliveryOverrides: new Map([[alice.id, { deliveryStatus: 'delivered', deliveryNote: 'Wallet added to the allowlist' }]]),
    },
    {
      ...base,
      label: 'drawnPrivate',
      workspace: kite,
      slug: 'kite-members-merch-drop',
      title: 'Kite members merch drop',
      description: 'Three signed prints for members of the Kite community.',
      mechanic: 'raffle',
      allocationType: 'physical',
      visibility: 'private',
      status: 'drawn',
      spots: 3,
      chain: null,
      requirements: [req.workspaceMember()],
      canonicalProject: kiteMerch,
      createdAt: daysBeforeDemoNow(25),
      entrants: [alice, bob, ...entrantRange(entrants, 4, 15)],
      twist: (person) => (person.id === alice.id ? { status: 'withdrawn' } : { source: 'web' }),
      // Entrant 15 leaves Kite after entering: the re-check at the draw invalidates the entry.
      leaveBeforeDraw: entrantRange(entrants, 15, 15),
      outcome: {
        kind: 'draw',
        mustWin: [bob],
        mustLose: [],
        disqualifiedWinner: { fromPosition: 2, reason: 'Shipping address could not be verified', rerolled: false },
      },
    },
    {
      ...base,
      label: 'finalizedCollection',
      workspace: kite,
      slug: 'kite-community-collection',
      title: 'Kite community collection',
      description: 'Every verified member gets a commemorative token.',
      mechanic: 'collection',
      allocationType: 'airdrop',
      visibility: 'unlisted',
      status: 'finalized',
      spots: 100,
      chain: 'ethereum',
      requirements: [req.walletConnected('ethereum')],
      canonicalProject: kiteGenesis,
      createdAt: daysBeforeDemoNow(90),
      entrants: [alice, ...entrantRange(entrants, 100, 159)],
      outcome: { kind: 'arrival' },
      deliveryOverrides: new Map([[alice.id, { deliveryStatus: 'processing', deliveryNote: 'Airdrop batch 3 is being submitted' }]]),
    },
    {
      ...base,
      label: 'finalizedApplication',
      workspace: kite,
      slug: 'kite-artist-residency',
      title: 'Kite artist residency',
      description: 'Two artists join the Kite studio for a month. Selected by the team.',
      mechanic: 'application',
      allocationType: 'custom',
      visibility: 'public',
      status: 'finalized',
      spots: 2,
      chain: null,
      requirements: [req.emailVerified()],
      canonicalProject: null,
      createdAt: daysBeforeDemoNow(70),
      entrants: [alice, bob, ...entrantRange(entrants, 200, 212)],
      twist: () => ({ source: 'web' }),
      outcome: { kind: 'manual', winners: [alice, bob] },
      deliveryOverrides: new Map([
        [alice.id, { deliveryStatus: 'pending', deliveryNote: 'Onboarding call to be scheduled' }],
        [bob.id, { deliveryStatus: 'delivered', deliveryNote: 'Residency completed' }],
      ]),
    },
    {
      // Open, public, and alice has not entered: the native-entry curl example enters her.
      ...base,
      label: 'openForEntry',
      workspace: kite,
      slug: 'kite-open-edition',
      title: 'Kite open edition airdrop',
      description: 'An open edition for everyone with a verified wallet and email.',
      mechanic: 'raffle',
      allocationType: 'airdrop',
      visibility: 'public',
      status: 'open',
      spots: 500,
      chain: 'ethereum',
      allowAutoEntry: true,
      requirements: [req.walletConnected('ethereum'), req.emailVerified()],
      canonicalProject: kiteGenesis,
      createdAt: daysBeforeDemoNow(14),
      entrants: entrantRange(entrants, 220, 249),
      twist: (_person, index) => (index % 7 === 3 ? { source: 'auto' } : index % 2 ? { source: 'api' } : undefined),
      outcome: { kind: 'none' },
    },
    {
      // Token-gated on the local chain `start` runs: alice holds a Nebula Pass and enters (201), bob
      // holds none and is refused (422, "holds 0 Nebula Pass, needs 1"). No entries are played in:
      // an on-chain requirement is read from the chain at entry, which the loader does not run.
      ...base,
      label: 'tokenGated',
      workspace: nebula,
      slug: 'nebula-pass-holders',
      title: 'Nebula Pass holders',
      description: 'An allowlist for holders of a Nebula Pass on the local demo chain.',
      mechanic: 'raffle',
      allocationType: 'allowlist_gtd',
      visibility: 'public',
      status: 'open',
      spots: 50,
      chain: DEMO_CHAIN_NAME,
      requirements: [req.holdsNft(DEMO_CHAIN_NAME, DEMO_CONTRACTS.erc721, NEBULA_PASS_NAME)],
      canonicalProject: nebulaGenesis,
      createdAt: daysBeforeDemoNow(3),
      entrants: [],
      outcome: { kind: 'none' },
    },
    {
      // Alice has no bitcoin wallet, so entering this one answers 422 REQUIREMENTS_NOT_MET.
      ...base,
      label: 'requirementsNotMet',
      workspace: kite,
      slug: 'kite-ordinals-allowlist',
      title: 'Kite ordinals allowlist',
      mechanic: 'raffle',
      allocationType: 'allowlist_fcfs',
      visibility: 'public',
      status: 'open',
      spots: 5,
      chain: 'bitcoin',
      requirements: [req.walletConnected('bitcoin')],
      canonicalProject: null,
      createdAt: daysBeforeDemoNow(10),
      entrants: entrantRange(entrants, 250, 275),
      outcome: { kind: 'none' },
    },
  ];
}
