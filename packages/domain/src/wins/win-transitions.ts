import { lockWinsOfRaffle, type DbOrTx, type schema, type WinRaffleRow } from '@raffle/db';

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

/** The raffle's wins in `status` (live ones by default), by position, locked for the rest of the transaction. */
export async function liveWinsOf(tx: DbOrTx, raffleId: string, status: readonly string[] = LIVE_WIN_STATUSES): Promise<WinRecord[]> {
  return lockWinsOfRaffle(tx, { raffleId, statuses: status });
}
