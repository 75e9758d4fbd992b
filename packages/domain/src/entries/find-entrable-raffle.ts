import { schema, type DbOrTx } from '@raffle/db';
import { and, eq, exists, inArray, or, sql } from 'drizzle-orm';
import { PUBLISHED_RAFFLE_STATUSES } from '@raffle/contracts';
import { DomainError } from '../errors.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';

export type RaffleRef = { slug: string } | { raffleId: string };

/**
 * The raffle a user may enter or withdraw from, locked for this transaction. Visible as on the
 * personal raffle routes: published, and public or unlisted, or private to a workspace the user
 * belongs to; anything else is not found. FCFS and collection raffles take an exclusive lock
 * (spots are counted and handed out one entry at a time); others share it, so entries run in
 * parallel yet never commit across a close.
 */
export async function lockEntrableRaffle(tx: DbOrTx, ref: RaffleRef, userId: string): Promise<RaffleRecord> {
  const { raffles, workspaceMembers } = schema;
  const member = tx
    .select({ one: sql`1` })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, raffles.workspaceId), eq(workspaceMembers.userId, userId)));
  const [found] = await tx
    .select({ id: raffles.id, mechanic: raffles.mechanic })
    .from(raffles)
    .where(
      and(
        'slug' in ref ? eq(raffles.slug, ref.slug) : eq(raffles.id, ref.raffleId),
        inArray(raffles.status, [...PUBLISHED_RAFFLE_STATUSES]),
        or(inArray(raffles.visibility, ['public', 'unlisted']), exists(member)),
      ),
    );
  if (!found) throw new DomainError('RAFFLE_NOT_FOUND', 'no such raffle');
  const exclusive = found.mechanic === 'fcfs' || found.mechanic === 'collection';
  const [row] = await tx.select().from(raffles).where(eq(raffles.id, found.id)).for(exclusive ? 'update' : 'share');
  return row!;
}
