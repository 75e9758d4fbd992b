import type { WinSource } from '@raffle/contracts';
import { insertWins, loadIdentitySnapshots, winRecordOf, type DbOrTx, type NewEvent, type schema, type WinRaffleRow } from '@raffle/db';
import { winEvents } from '../events/resource-events.js';
import { winRaffleOf, type WinRecord } from './win-transitions.js';

export type WinPick = { entry: { id: string; userId: string; walletSnapshot: string | null }; position: number; source: WinSource };

/** The wins of the picks, `selected` (or `finalized` when the raffle already is), and their events; nothing is written. */
export function planWins(
  raffle: WinRaffleRow & { status: string },
  picks: WinPick[],
  at: Date,
  identities: Map<string, schema.IdentitySnapshot>,
): { wins: WinRecord[]; events: NewEvent[] } {
  const final = raffle.status === 'finalized';
  const planned: WinRecord[] = [];
  const events: NewEvent[] = [];
  for (const pick of picks) {
    const win = winRecordOf(
      {
        raffleId: raffle.id,
        entryId: pick.entry.id,
        userId: pick.entry.userId,
        position: pick.position,
        source: pick.source,
        status: final ? 'finalized' : 'selected',
        walletSnapshot: pick.entry.walletSnapshot,
        identitySnapshot: identities.get(pick.entry.userId) ?? { handle: pick.entry.userId, wallets: [] },
        deliveryStatus: 'pending',
        deliveryNote: null,
        selectedAt: at,
        finalizedAt: final ? at : null,
        disqualifiedAt: null,
        replacedAt: null,
        deliveredAt: null,
      },
      winRaffleOf(raffle),
    );
    planned.push(win);
    events.push(...winEvents('selected', win, raffle.workspaceId, at));
    if (final) events.push(...winEvents('finalized', win, raffle.workspaceId, at));
  }
  return { wins: planned, events };
}

/**
 * Inserts one win per pick and returns them with their events (see planWins). The partial
 * unique indexes on live positions and entries make a double allocation fail instead of commit.
 */
export async function createWins(
  tx: DbOrTx,
  raffle: WinRaffleRow & { status: string },
  picks: WinPick[],
  at: Date,
): Promise<{ wins: WinRecord[]; events: NewEvent[] }> {
  if (picks.length === 0) return { wins: [], events: [] };
  // Who won, as the team saw them at selection: later profile edits do not rewrite a win.
  const identities = await loadIdentitySnapshots(tx, [...new Set(picks.map((p) => p.entry.userId))]);
  const planned = planWins(raffle, picks, at, identities);
  await insertWins(tx, planned.wins);
  return planned;
}
