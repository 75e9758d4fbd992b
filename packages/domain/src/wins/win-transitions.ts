import { schema, updateWin, type DbOrTx, type NewEvent, type WinRaffleRow } from '@raffle/db';
import { and, eq, inArray } from 'drizzle-orm';
import { winEvents } from '../events/resource-events.js';

export type WinRecord = typeof schema.wins.$inferSelect;

/** Statuses in which a win holds its position. */
export const LIVE_WIN_STATUSES = ['selected', 'finalized'] as const;

export const winRaffleOf = (r: WinRaffleRow): WinRaffleRow => ({
  id: r.id,
  slug: r.slug,
  title: r.title,
  mechanic: r.mechanic,
  allocationType: r.allocationType,
  chain: r.chain,
  workspaceId: r.workspaceId,
});

export async function liveWinsOf(tx: DbOrTx, raffleId: string, status: readonly string[] = LIVE_WIN_STATUSES): Promise<WinRecord[]> {
  const { wins } = schema;
  return tx
    .select()
    .from(wins)
    .where(and(eq(wins.raffleId, raffleId), inArray(wins.status, [...status])))
    .orderBy(wins.position)
    .for('update');
}

/** selected → finalized, for every selected win of a raffle being finalized. */
export async function finalizeSelectedWins(tx: DbOrTx, raffle: WinRaffleRow, at: Date): Promise<NewEvent[]> {
  const events: NewEvent[] = [];
  for (const win of await liveWinsOf(tx, raffle.id, ['selected'])) {
    const updated = await updateWin(tx, win.id, winRaffleOf(raffle), { status: 'finalized', finalizedAt: at, updatedAt: at });
    events.push(...winEvents('finalized', updated!, raffle.workspaceId, at));
  }
  return events;
}

/** selected | finalized → disqualified: the position is free for a reroll; nothing is delivered. */
export async function disqualifyLiveWin(tx: DbOrTx, win: WinRecord, raffle: WinRaffleRow, reason: string, at: Date): Promise<{ win: WinRecord; events: NewEvent[] }> {
  const updated = await updateWin(tx, win.id, winRaffleOf(raffle), {
    status: 'disqualified',
    disqualifiedAt: at,
    deliveryStatus: 'not_applicable',
    deliveryNote: reason,
    updatedAt: at,
  });
  return { win: updated!, events: winEvents('disqualified', updated!, raffle.workspaceId, at) };
}
