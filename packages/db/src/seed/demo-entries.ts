import type { DuplicateFlags, EntrySource, EntryStatus } from '@raffle/contracts';
import type { NewEntry, RequirementEvaluation } from '../writes/entries.js';
import { addHours, DEMO_NOW, spreadOver } from './demo-clock.js';
import { demoId } from './demo-derive.js';
import type { DemoPerson } from './demo-people.js';
import type { DemoRaffleSpec } from './demo-raffle-catalogue.js';
import { evaluateRequirements, failedRequirementsReason } from './demo-requirements.js';

export type PlannedEntry = NewEntry & {
  id: string;
  createdAt: Date;
  status: EntryStatus;
  duplicateFlags: DuplicateFlags;
  entryWeight: string;
  person: DemoPerson;
};

const DEFAULT_SOURCES: EntrySource[] = ['web', 'web', 'api', 'web', 'import'];

function walletFor(person: DemoPerson, chain: string | null): string | null {
  if (!chain) return null;
  return person.wallets.find((w) => w.chain === chain)?.address ?? null;
}

/** Ids of the other entries sharing a value: the duplicate check's view of one entry. */
function sharing<K>(entries: PlannedEntry[], keyOf: (e: PlannedEntry) => K | null): Map<K, PlannedEntry[]> {
  const groups = new Map<K, PlannedEntry[]>();
  for (const e of entries) {
    const key = keyOf(e);
    if (key === null) continue;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return groups;
}

/**
 * The duplicate check as the platform runs it: every entry sharing a wallet or an IP hash with
 * another is flagged; a valid entry whose wallet already entered is disqualified.
 */
function applyDuplicateCheck(entries: PlannedEntry[]): void {
  for (const group of sharing(entries, (e) => e.walletSnapshot ?? null).values()) {
    if (group.length < 2) continue;
    for (const e of group) e.duplicateFlags.walletReuse = group.filter((o) => o !== e).map((o) => o.id);
    for (const later of group.slice(1)) {
      if (later.status !== 'valid') continue;
      later.status = 'disqualified';
      later.statusReason = 'Duplicate wallet: this wallet already entered the raffle';
    }
  }
  for (const group of sharing(entries, (e) => e.ipHash ?? null).values()) {
    if (group.length < 2) continue;
    for (const e of group) e.duplicateFlags.ipReuse = group.filter((o) => o !== e).map((o) => o.id);
  }
}

export type EntryWindow = { from: Date; to: Date };

/** The window entries arrive in: from opening to closing, or until shortly before DEMO_NOW while still open. */
export function entryWindow(times: { openedAt: Date | null; closedAt: Date | null; cancelledAt: Date | null }): EntryWindow | null {
  if (!times.openedAt) return null;
  return { from: times.openedAt, to: times.closedAt ?? times.cancelledAt ?? addHours(DEMO_NOW, -1) };
}

export function planEntries(
  spec: DemoRaffleSpec,
  raffle: { id: string; slug: string },
  window: EntryWindow | null,
  workspaceRoles: ReadonlyMap<string, string>,
): PlannedEntry[] {
  if (!window) return [];
  // Nobody enters before their account exists: young accounts simply miss older raffles.
  const entrants = spec.entrants.filter((p) => p.createdAt < window.from);
  const entries = entrants.map((person, index): PlannedEntry => {
    const createdAt = spreadOver(window.from, window.to, index, entrants.length);
    const twist = spec.twist?.(person, index);
    const source = twist && 'source' in twist ? twist.source : DEFAULT_SOURCES[index % DEFAULT_SOURCES.length]!;
    const pending = twist && 'status' in twist && twist.status === 'pending';
    // A pending entry is still being evaluated: it has no verdicts yet.
    const evaluations: RequirementEvaluation[] = pending
      ? []
      : evaluateRequirements(spec.requirements, person, { at: createdAt, workspaceRoles });
    const passed = evaluations.every((e) => e.passed);
    let status: EntryStatus = pending ? 'pending' : passed ? 'valid' : 'invalid';
    let statusReason: string | null = passed ? null : failedRequirementsReason(evaluations);
    if (status === 'valid' && twist && 'status' in twist && twist.status !== 'pending') {
      status = twist.status;
      statusReason = twist.status === 'disqualified' ? twist.statusReason : null;
    }
    return {
      id: demoId('entry', `${raffle.slug}:${person.handle}`, createdAt),
      raffle,
      userId: person.id,
      status,
      source,
      entryWeight: '1',
      walletSnapshot: walletFor(person, spec.chain),
      statusReason,
      duplicateFlags: {},
      ipHash: person.ipHash,
      createdAt,
      evaluations,
      person,
    };
  });
  applyDuplicateCheck(entries);
  return entries;
}
