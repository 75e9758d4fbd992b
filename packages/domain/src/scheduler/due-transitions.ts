import { schema, type Db } from '@raffle/db';
import { and, asc, eq, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import { isDomainError } from '../errors.js';
import { drawRaffleIn } from '../raffles/draw.js';
import { closeRaffleIn, finalizeRaffleIn, openRaffleIn } from '../raffles/lifecycle.js';
import type { RaffleRecord } from '../raffles/raffle-locks.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** One kind of deadline the scheduler keeps: which raffles are due, and what moves them. */
type DueTransition = {
  name: 'opened' | 'closed' | 'drawn' | 'finalized';
  due: (now: Date) => SQL | undefined;
  order: SQL;
  apply: (tx: Tx, raffle: RaffleRecord, now: Date) => Promise<RaffleRecord>;
};

const { raffles } = schema;

/** In the order a missed stretch of time would have run them: one pass catches a raffle all the way up. */
export const DUE_TRANSITIONS: DueTransition[] = [
  { name: 'opened', due: (now) => and(eq(raffles.status, 'scheduled'), lte(raffles.startsAt, now)), order: asc(raffles.startsAt), apply: openRaffleIn },
  { name: 'closed', due: (now) => and(eq(raffles.status, 'open'), lte(raffles.endsAt, now)), order: asc(raffles.endsAt), apply: closeRaffleIn },
  {
    name: 'drawn',
    due: () => and(eq(raffles.status, 'closed'), sql`(${raffles.settings}->>'autoDraw')::boolean`, sql`${raffles.mechanic} <> 'application'`),
    order: asc(raffles.closedAt),
    apply: (tx, raffle, now) => drawRaffleIn(tx, raffle, now),
  },
  {
    name: 'finalized',
    due: () => and(eq(raffles.status, 'drawn'), sql`(${raffles.settings}->>'autoFinalize')::boolean`),
    order: asc(raffles.drawnAt),
    apply: finalizeRaffleIn,
  },
];

export type SchedulerPass = Record<DueTransition['name'], number> & { failed: { raffleId: string; reason: string }[] };

/**
 * Moves every raffle whose deadline has passed, one raffle per transaction. `FOR UPDATE SKIP
 * LOCKED` lets any number of instances run this at once: each raffle is taken by exactly one,
 * and a raffle a user is transitioning by hand is simply left for the next pass. A raffle whose
 * transition fails is logged and skipped for the rest of the pass, never retried in a hot loop.
 */
export async function runDueTransitions(db: Db, options: { clock: Clock; onError?: (raffleId: string, error: unknown) => void }): Promise<SchedulerPass> {
  const pass: SchedulerPass = { opened: 0, closed: 0, drawn: 0, finalized: 0, failed: [] };
  for (const transition of DUE_TRANSITIONS) {
    const skip: string[] = [];
    for (;;) {
      const now = options.clock.now();
      let picked: string | null = null;
      let attempted: string | null = null;
      try {
        picked = await db.transaction(async (tx) => {
          const [raffle] = await tx
            .select()
            .from(raffles)
            .where(and(transition.due(now), skip.length > 0 ? notInArray(raffles.id, skip) : undefined))
            .orderBy(transition.order)
            .limit(1)
            .for('update', { skipLocked: true });
          if (!raffle) return null;
          attempted = raffle.id;
          await transition.apply(tx, raffle, now);
          return raffle.id;
        });
      } catch (error) {
        if (attempted === null) throw error;
        options.onError?.(attempted, error);
        // Only a name: a failed query's text carries its parameters (a raffle's draw seed among them).
        pass.failed.push({ raffleId: attempted, reason: isDomainError(error) ? error.code : (error as Error)?.constructor?.name ?? 'Error' });
        skip.push(attempted);
        continue;
      }
      if (picked === null) break;
      pass[transition.name] += 1;
    }
  }
  return pass;
}
