import type { DuplicateFlags } from '@raffle/contracts';
import { findEntryDuplicateFlags, updateEntry, type DbOrTx, type NewEvent } from '@raffle/db';
import { workspaceEntryEvent } from '../events/resource-events.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';

/** Flags list at most this many other entries: enough to judge, bounded for a farmed IP. */
export const MAX_LISTED_DUPLICATES = 50;

/**
 * The new entry's flags: the earlier entries of its raffle sharing its wallet or its IP hash, as
 * read after the signals' advisory locks (readEntrantAdmission), so two entries sharing a signal
 * that arrive at once still see each other, and unrelated entries never wait on each other.
 */
export function duplicateFlagsOf(reuse: { walletReuse: string[]; ipReuse: string[] }): DuplicateFlags {
  const flags: DuplicateFlags = {};
  if (reuse.walletReuse.length > 0) flags.walletReuse = reuse.walletReuse;
  if (reuse.ipReuse.length > 0) flags.ipReuse = reuse.ipReuse;
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
      if (list.length < MAX_LISTED_DUPLICATES && !list.includes(newEntryId)) {
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
