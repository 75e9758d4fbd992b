import { listValidEntriesInArrivalOrder, lockWinsOfEntries, replaceEntryEvaluations, updateEntry, type DbOrTx, type NewEvent } from '@raffle/db';
import { entryEvents } from '../events/resource-events.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';
import { entriesFailingRequirements, failedRequirementsReason, verdictsOf } from '../requirements/evaluate.js';
import { disqualifyLiveWin } from '../wins/win-steps.js';
import { LIVE_WIN_STATUSES } from '../wins/win-transitions.js';

/**
 * The draw's second look: a valid entry whose entrant no longer meets a requirement (a wallet
 * unlinked, a role lost) becomes invalid, and a win it already holds (FCFS) is disqualified.
 */
export async function recheckRequirements(tx: DbOrTx, raffle: RaffleRecord, at: Date): Promise<NewEvent[]> {
  const failing = await entriesFailingRequirements(tx, raffle, at);
  if (failing.length === 0) return [];
  const events: NewEvent[] = [];
  const liveWins = await lockWinsOfEntries(tx, { entryIds: failing.map((f) => f.entryId), statuses: LIVE_WIN_STATUSES });
  for (const f of failing) {
    const verdicts = verdictsOf(raffle.requirements, f.passed, f.evidence);
    await replaceEntryEvaluations(tx, f.entryId, verdicts.evaluations, at);
    const entry = await updateEntry(tx, f.entryId, raffle, {
      status: 'invalid',
      statusReason: failedRequirementsReason(verdicts.failed),
      updatedAt: at,
    });
    events.push(...entryEvents('entry.updated', entry!, raffle.workspaceId, at));
    const win = liveWins.find((w) => w.entryId === f.entryId);
    if (win) events.push(...(await disqualifyLiveWin(tx, win, raffle, 'Requirements no longer met at the draw', at)).events);
  }
  return events;
}

export const isFlaggedDuplicate = (flags: { walletReuse?: string[]; ipReuse?: string[]; discordReuse?: string[]; xReuse?: string[] }) =>
  Boolean(flags.walletReuse?.length || flags.ipReuse?.length || flags.discordReuse?.length || flags.xReuse?.length);

/** Valid entries in arrival (id) order, without flagged duplicates when the raffle excludes them. */
export async function eligibleEntriesInArrivalOrder(tx: DbOrTx, raffle: RaffleRecord, limit: number) {
  const rows = await listValidEntriesInArrivalOrder(tx, { raffleId: raffle.id });
  return rows.filter((e) => !(raffle.settings.excludeFlaggedDuplicates && isFlaggedDuplicate(e.duplicateFlags))).slice(0, limit);
}
