import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { newId } from '../ids.js';
import { renderWinColumns, type WinRaffleRow, type WinRow } from '../render/win.js';
import { wins } from '../schema/wins.js';

export type NewWin = Omit<WinRow, 'id' | 'createdAt' | 'updatedAt'> & { id?: string };

export async function insertWin(tx: DbOrTx, input: NewWin, raffle: WinRaffleRow) {
  const now = input.selectedAt;
  const row: WinRow = { ...input, id: input.id ?? newId('win', now.getTime()), createdAt: now, updatedAt: input.finalizedAt ?? now };
  const [win] = await tx
    .insert(wins)
    .values({ ...row, ...renderWinColumns(row, raffle) })
    .returning();
  return win!;
}

export type WinChanges = Partial<
  Pick<WinRow, 'status' | 'finalizedAt' | 'disqualifiedAt' | 'replacedAt' | 'deliveredAt' | 'deliveryStatus' | 'deliveryNote'>
> & { updatedAt: Date };

/** Applies `changes` to a win and re-renders the win and winner views of it. */
export async function updateWin(tx: DbOrTx, winId: string, raffle: WinRaffleRow, changes: WinChanges) {
  const [current] = await tx.select().from(wins).where(eq(wins.id, winId)).for('update');
  if (!current) return null;
  const next: WinRow = { ...current, ...changes };
  const [updated] = await tx
    .update(wins)
    .set({ ...changes, ...renderWinColumns(next, raffle) })
    .where(eq(wins.id, winId))
    .returning();
  return updated!;
}
