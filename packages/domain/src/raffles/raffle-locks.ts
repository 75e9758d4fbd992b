import { schema, type DbOrTx } from '@raffle/db';
import { and, eq } from 'drizzle-orm';
import { DomainError } from '../errors.js';

export type RaffleRecord = typeof schema.raffles.$inferSelect;

/**
 * Reads a raffle and locks it for the rest of the transaction: every transition of one raffle
 * runs one at a time, whichever instance or scheduler starts it.
 */
export async function lockRaffle(tx: DbOrTx, args: { raffleId: string; workspaceId?: string }): Promise<RaffleRecord> {
  const { raffles } = schema;
  const where = args.workspaceId ? and(eq(raffles.id, args.raffleId), eq(raffles.workspaceId, args.workspaceId)) : eq(raffles.id, args.raffleId);
  const [row] = await tx.select().from(raffles).where(where).for('update');
  if (!row) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle ${args.raffleId} in this workspace`);
  return row;
}
