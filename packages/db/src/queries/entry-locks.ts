import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { entries } from '../schema/entries.js';

/** An entry of the raffle, by its entrant or by id, locked for the rest of the transaction. */
export async function lockRaffleEntry(tx: DbOrTx, args: { raffleId: string; userId?: string; entryId?: string }) {
  const [row] = await tx
    .select()
    .from(entries)
    .where(
      and(
        eq(entries.raffleId, args.raffleId),
        args.userId ? eq(entries.userId, args.userId) : undefined,
        args.entryId ? eq(entries.id, args.entryId) : undefined,
      ),
    )
    .for('update');
  return row ?? null;
}
