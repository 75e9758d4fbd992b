import type { EntrySource } from '@raffle/contracts';
import { addHours, DEMO_NOW, spreadOver } from './demo-clock.js';
import { demoId } from './demo-derive.js';
import type { DemoPerson } from './demo-people.js';
import type { DemoRaffleSpec, EntryTwist } from './demo-raffle-catalogue.js';
import { meetsRequirements } from './demo-requirements.js';

/** What happens to an accepted entry later, played through the domain at `at`. */
export type EntryFate = { status: 'withdrawn'; at: Date } | { status: 'disqualified'; reason: string; at: Date };

export type PlannedEntry = {
  /** Fixed by slug and handle, and time-sortable by createdAt: enterRaffle stores it as the entry id. */
  id: string;
  person: DemoPerson;
  createdAt: Date;
  source: EntrySource;
  ipHash: string;
  /** The wallet enterRaffle will snapshot: the person's wallet on the raffle's chain. */
  walletSnapshot: string | null;
  fate: EntryFate | null;
  /** Shares a wallet or an IP hash with another entry of the raffle: what the duplicate check flags. */
  flagged: boolean;
};

const DEFAULT_SOURCES: EntrySource[] = ['web', 'web', 'api', 'web', 'import'];

export type EntryWindow = { from: Date; to: Date };

/** The window entries arrive in: from opening to closing, or until shortly before DEMO_NOW while still open. */
export function entryWindow(times: { openedAt: Date | null; closedAt: Date | null; cancelledAt: Date | null }): EntryWindow | null {
  if (!times.openedAt) return null;
  return { from: times.openedAt, to: times.closedAt ?? times.cancelledAt ?? addHours(DEMO_NOW, -1) };
}

/** Halfway between the entry and the end of the window: while the raffle is still open. */
function fateOf(twist: EntryTwist | undefined, createdAt: Date, window: EntryWindow): EntryFate | null {
  if (!twist || !('status' in twist)) return null;
  const at = new Date(Math.floor((createdAt.getTime() + window.to.getTime()) / 2));
  return twist.status === 'withdrawn' ? { status: 'withdrawn', at } : { status: 'disqualified', reason: twist.statusReason, at };
}

/**
 * The wallets an entry's eligibility counts (enter_raffle, migration 0019): the person's verified
 * wallets on the raffle's chain and on its requirements' chains, or on any chain without a raffle chain.
 */
function countedWallets(spec: DemoRaffleSpec, person: DemoPerson): string[] {
  const chains = new Set(spec.requirements.map((r) => r.params?.chain).filter((c): c is string => typeof c === 'string'));
  return person.wallets.filter((w) => w.verified && (spec.chain === null || w.chain === spec.chain || chains.has(w.chain))).map((w) => w.address);
}

/**
 * The domain flags both entries of a shared wallet or IP hash (the later one on entry, the earlier
 * one with it): a wallet is shared when it is one entry's snapshot or counted wallet and another's.
 * (The domain matches counted wallets by chain and address; the demo's addresses differ across chains.)
 */
function markDuplicates(entries: PlannedEntry[], spec: DemoRaffleSpec): void {
  const counts = new Map<string, number>();
  const signals = (e: PlannedEntry) => [
    ...new Set([e.walletSnapshot, ...countedWallets(spec, e.person)].filter((w): w is string => Boolean(w)).map((w) => `w:${w}`)),
    `i:${e.ipHash}`,
  ];
  for (const e of entries) for (const s of signals(e)) counts.set(s, (counts.get(s) ?? 0) + 1);
  for (const e of entries) e.flagged = signals(e).some((s) => counts.get(s)! > 1);
}

/**
 * The entries the domain will accept, in arrival order: entrants failing a requirement when they
 * arrive are refused (422), so they have none. `isMember` answers for the raffle's workspace.
 */
export function planEntries(spec: DemoRaffleSpec, window: EntryWindow | null, isMember: (person: DemoPerson) => boolean): PlannedEntry[] {
  if (!window) return [];
  // Nobody enters before their account exists: young accounts simply miss older raffles.
  const entrants = spec.entrants.filter((p) => p.createdAt < window.from);
  const entries = entrants.flatMap((person, index): PlannedEntry[] => {
    const createdAt = spreadOver(window.from, window.to, index, entrants.length);
    if (!meetsRequirements(spec.requirements, person, { at: createdAt, isMember })) return [];
    const twist = spec.twist?.(person, index);
    return [
      {
        id: demoId('entry', `${spec.slug}:${person.handle}`, createdAt),
        person,
        createdAt,
        source: twist && 'source' in twist ? twist.source : DEFAULT_SOURCES[index % DEFAULT_SOURCES.length]!,
        ipHash: person.ipHash,
        walletSnapshot: spec.chain ? (person.wallets.find((w) => w.chain === spec.chain)?.address ?? null) : null,
        fate: fateOf(twist, createdAt, window),
        flagged: false,
      },
    ];
  });
  markDuplicates(entries, spec);
  return entries;
}
