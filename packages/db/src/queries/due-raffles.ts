import { and, asc, eq, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { raffles } from '../schema/raffles.js';

/** The deadlines the scheduler keeps, by the transition they are due for. */
export type DueRaffleKind = 'opened' | 'closed' | 'drawn' | 'finalized';

/** Which raffles are due, and in what order: the partial indexes on startsAt and endsAt serve the first two. */
const DUE: Record<DueRaffleKind, { due: (now: Date) => SQL | undefined; order: SQL }> = {
  opened: { due: (now) => and(eq(raffles.status, 'scheduled'), lte(raffles.startsAt, now)), order: asc(raffles.startsAt) },
  closed: { due: (now) => and(eq(raffles.status, 'open'), lte(raffles.endsAt, now)), order: asc(raffles.endsAt) },
  drawn: {
    // An application raffle is never drawn automatically: its winners are picked by hand.
    due: () => and(eq(raffles.status, 'closed'), sql`(${raffles.settings}->>'autoDraw')::boolean`, sql`${raffles.mechanic} <> 'application'`),
    order: asc(raffles.closedAt),
  },
  finalized: { due: () => and(eq(raffles.status, 'drawn'), sql`(${raffles.settings}->>'autoFinalize')::boolean`), order: asc(raffles.drawnAt) },
};

/**
 * The next raffle due for `kind` at `now`, locked, or null. `FOR NO KEY UPDATE SKIP LOCKED` (see RaffleLockMode): a raffle
 * another instance (or a user's transition) holds is left for the next pass instead of waited on.
 * `skip` names raffles whose transition already failed in this pass.
 */
export async function lockNextDueRaffle(tx: DbOrTx, args: { kind: DueRaffleKind; now: Date; skip: readonly string[] }) {
  const { due, order } = DUE[args.kind];
  const [row] = await tx
    .select()
    .from(raffles)
    .where(and(due(args.now), args.skip.length > 0 ? notInArray(raffles.id, [...args.skip]) : undefined))
    .orderBy(order)
    .limit(1)
    .for('no key update', { skipLocked: true });
  return row ?? null;
}
