import type { RaffleStatus } from '@raffle/contracts';
import { addDays, DEMO_FAR_FUTURE } from './demo-clock.js';

export type RaffleTimeline = {
  startsAt: Date | null;
  endsAt: Date | null;
  publishedAt: Date | null;
  openedAt: Date | null;
  closedAt: Date | null;
  drawnAt: Date | null;
  finalizedAt: Date | null;
  cancelledAt: Date | null;
};

/**
 * When each transition of product.md's lifecycle happens to a raffle created at `createdAt` that
 * ends up in `status`: a fixed number of days apart, null for the ones it never reaches. The
 * loader walks a manual clock through these. Raffles still waiting for a start or an end get it in
 * DEMO_FAR_FUTURE; an opened raffle starts a day after publish, so publish schedules it and the
 * open is a step of its own.
 */
export function raffleTimeline(status: RaffleStatus, createdAt: Date): RaffleTimeline {
  const reached = (step: RaffleStatus) => {
    const order: RaffleStatus[] = ['draft', 'scheduled', 'open', 'closed', 'drawn', 'finalized'];
    return status !== 'cancelled' && order.indexOf(status) >= order.indexOf(step);
  };
  const published = status === 'cancelled' || reached('scheduled');
  const opened = status === 'cancelled' || reached('open');

  return {
    publishedAt: published ? addDays(createdAt, 1) : null,
    startsAt: status === 'draft' ? null : opened ? addDays(createdAt, 2) : DEMO_FAR_FUTURE,
    openedAt: opened ? addDays(createdAt, 2) : null,
    endsAt: status === 'draft' ? null : reached('closed') || status === 'cancelled' ? addDays(createdAt, 9) : addDays(DEMO_FAR_FUTURE, 7),
    closedAt: reached('closed') ? addDays(createdAt, 9) : null,
    drawnAt: reached('drawn') ? addDays(createdAt, 10) : null,
    finalizedAt: reached('finalized') ? addDays(createdAt, 12) : null,
    cancelledAt: status === 'cancelled' ? addDays(createdAt, 5) : null,
  };
}
