import { freeFcfsSpot, updateWin, type DbOrTx, type NewEvent, type schema, type WinRaffleRow } from '@raffle/db';
import { queueAllowlistBuild } from '../allowlists/request-allowlist-build.js';
import { winEvents } from '../events/resource-events.js';
import { liveWinsOf, winRaffleOf, type WinRecord } from './win-transitions.js';

// What happens to wins when their raffle moves, inside a transaction whose caller has locked the
// raffle and checked the acting principal. Not exported from the package.

/** selected → finalized, for every selected win of a raffle being finalized. */
export async function finalizeSelectedWins(tx: DbOrTx, raffle: WinRaffleRow, at: Date): Promise<NewEvent[]> {
  const events: NewEvent[] = [];
  for (const win of await liveWinsOf(tx, raffle.id, ['selected'])) {
    const updated = await updateWin(tx, win.id, winRaffleOf(raffle), { status: 'finalized', finalizedAt: at, updatedAt: at });
    events.push(...winEvents('finalized', updated!, raffle.workspaceId, at));
  }
  return events;
}

/**
 * selected | finalized → disqualified: nothing is delivered, and the position is free: for the
 * next entrant while an FCFS raffle is still open, for a reroll once a raffle is drawn.
 */
export async function disqualifyLiveWin(
  tx: DbOrTx,
  win: WinRecord,
  raffle: WinRaffleRow & { status: string; settings: schema.RaffleSettings },
  reason: string,
  at: Date,
): Promise<{ win: WinRecord; events: NewEvent[] }> {
  // A finalized winner leaves the allowlist: a new version is built without them (issue 35).
  if (win.status === 'finalized') await queueAllowlistBuild(tx, raffle, at);
  // The SQL offers the spot again only while the raffle is open (decision 0029).
  if (raffle.mechanic === 'fcfs') await freeFcfsSpot(tx, { raffleId: raffle.id, position: win.position, entryId: win.entryId });
  const updated = await updateWin(tx, win.id, winRaffleOf(raffle), {
    status: 'disqualified',
    disqualifiedAt: at,
    deliveryStatus: 'not_applicable',
    deliveryNote: reason,
    updatedAt: at,
  });
  return { win: updated!, events: winEvents('disqualified', updated!, raffle.workspaceId, at) };
}
