import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { newId } from '../ids.js';
import { renderWinColumns, type WinRaffleRow, type WinRow } from '../render/win.js';
import { wins } from '../schema/wins.js';

/** A win to insert; `allowlistWallet` is named by the winner later (issue 35), so it starts null. */
export type NewWin = Omit<WinRow, 'id' | 'createdAt' | 'updatedAt' | 'allowlistWallet'> & { id?: string; allowlistWallet?: string | null };

type WinRecord = typeof wins.$inferSelect;

/** The win exactly as `insertWins` stores it, rendered views included, before it is written. */
export function winRecordOf(input: NewWin, raffle: WinRaffleRow): WinRecord {
  const now = input.selectedAt;
  const row: WinRow = { allowlistWallet: null, ...input, id: input.id ?? newId('win', now.getTime()), createdAt: now, updatedAt: input.finalizedAt ?? now };
  return { ...row, ...renderWinColumns(row, raffle) };
}

/** Stores wins built by `winRecordOf`, many rows per statement (a draw selects thousands). */
export async function insertWins(tx: DbOrTx, records: WinRecord[]): Promise<void> {
  for (let i = 0; i < records.length; i += 1000) await tx.insert(wins).values(records.slice(i, i + 1000));
}

export async function insertWin(tx: DbOrTx, input: NewWin, raffle: WinRaffleRow): Promise<WinRecord> {
  const win = winRecordOf(input, raffle);
  await insertWins(tx, [win]);
  return win;
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
