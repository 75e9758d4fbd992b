import type { DuplicateFlags } from '@raffle/contracts';
import {
  findEntryDuplicateFlags,
  listEntryIdsSharingSignal,
  lockDuplicateSignal,
  updateEntry,
  type DbOrTx,
  type DuplicateSignal,
  type NewEvent,
} from '@raffle/db';
import { workspaceEntryEvent } from '../events/resource-events.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';

/** Flags list at most this many other entries: enough to judge, bounded for a farmed IP. */
const MAX_LISTED = 50;

type Signals = { walletSnapshot: string | null; ipHash: string | null };

/** The signals an entry carries, wallet first: every entry takes its locks in this order. */
function signalsOf(signals: Signals): DuplicateSignal[] {
  const present: DuplicateSignal[] = [];
  if (signals.walletSnapshot) present.push({ kind: 'wallet', walletSnapshot: signals.walletSnapshot });
  if (signals.ipHash) present.push({ kind: 'ip', ipHash: signals.ipHash });
  return present;
}

/**
 * Serialises entries that share a wallet or an IP hash within one raffle, so two arriving at once
 * still see each other; unrelated entries never wait on each other.
 */
export async function lockDuplicateSignals(tx: DbOrTx, raffleId: string, signals: Signals): Promise<void> {
  for (const signal of signalsOf(signals)) await lockDuplicateSignal(tx, { raffleId, signal });
}

/** The earlier entries of this raffle sharing the new entry's wallet or IP hash. */
export async function findDuplicates(tx: DbOrTx, raffleId: string, signals: Signals): Promise<DuplicateFlags> {
  const flags: DuplicateFlags = {};
  for (const signal of signalsOf(signals)) {
    const ids = await listEntryIdsSharingSignal(tx, { raffleId, signal, limit: MAX_LISTED });
    if (ids.length > 0) flags[signal.kind === 'wallet' ? 'walletReuse' : 'ipReuse'] = ids;
  }
  return flags;
}

/** The earlier entries now share a signal with the new one: their flags name it too. */
export async function flagEarlierEntries(tx: DbOrTx, raffle: RaffleRecord, newEntryId: string, flags: DuplicateFlags, at: Date): Promise<NewEvent[]> {
  const additions = new Map<string, DuplicateFlags>();
  for (const kind of ['walletReuse', 'ipReuse'] as const) {
    for (const id of flags[kind] ?? []) additions.set(id, { ...additions.get(id), [kind]: [newEntryId] });
  }
  const events: NewEvent[] = [];
  for (const [id, added] of additions) {
    const next: DuplicateFlags = { ...(await findEntryDuplicateFlags(tx, id))! };
    let changed = false;
    for (const kind of ['walletReuse', 'ipReuse'] as const) {
      if (!added[kind]) continue;
      const list = next[kind] ?? [];
      if (list.length < MAX_LISTED && !list.includes(newEntryId)) {
        next[kind] = [...list, newEntryId];
        changed = true;
      }
    }
    // A full list already says "farmed": rewriting it (and announcing it) for every newcomer made
    // one busy IP serialise and rewrite the same 50 rows on each entry.
    if (!changed) continue;
    const updated = await updateEntry(tx, id, raffle, { duplicateFlags: next, updatedAt: at });
    events.push(workspaceEntryEvent(updated!, raffle.workspaceId, at));
  }
  return events;
}
