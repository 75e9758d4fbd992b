import type { DuplicateFlags } from '@raffle/contracts';
import { schema, updateEntry, type DbOrTx, type NewEvent } from '@raffle/db';
import { and, eq, sql } from 'drizzle-orm';
import { workspaceEntryEvent } from '../events/resource-events.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';

/** Flags list at most this many other entries: enough to judge, bounded for a farmed IP. */
const MAX_LISTED = 50;

type Signals = { walletSnapshot: string | null; ipHash: string | null };

/**
 * Serialises entries that share a wallet or an IP hash within one raffle, so two arriving at once
 * still see each other; unrelated entries never wait on each other.
 */
export async function lockDuplicateSignals(tx: DbOrTx, raffleId: string, signals: Signals): Promise<void> {
  for (const value of [signals.walletSnapshot && `w:${signals.walletSnapshot}`, signals.ipHash && `i:${signals.ipHash}`]) {
    if (value) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${raffleId}:${value}`}, 0))`);
  }
}

/** The earlier entries of this raffle sharing the new entry's wallet or IP hash. */
export async function findDuplicates(tx: DbOrTx, raffleId: string, signals: Signals): Promise<DuplicateFlags> {
  const { entries } = schema;
  const flags: DuplicateFlags = {};
  if (signals.walletSnapshot) {
    const rows = await tx
      .select({ id: entries.id })
      .from(entries)
      .where(and(eq(entries.raffleId, raffleId), eq(entries.walletSnapshot, signals.walletSnapshot)))
      .orderBy(entries.id)
      .limit(MAX_LISTED);
    if (rows.length > 0) flags.walletReuse = rows.map((r) => r.id);
  }
  if (signals.ipHash) {
    const rows = await tx
      .select({ id: entries.id })
      .from(entries)
      .where(and(eq(entries.raffleId, raffleId), eq(entries.ipHash, signals.ipHash)))
      .orderBy(entries.id)
      .limit(MAX_LISTED);
    if (rows.length > 0) flags.ipReuse = rows.map((r) => r.id);
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
    const [current] = await tx.select({ flags: schema.entries.duplicateFlags }).from(schema.entries).where(eq(schema.entries.id, id));
    const next: DuplicateFlags = { ...current!.flags };
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
