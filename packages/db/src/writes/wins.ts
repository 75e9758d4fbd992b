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
