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
  /** The last of the above that happened: the row's updatedAt. */
  lastChangeAt: Date;
};

/**
 * The lifecycle timestamps a raffle in `status` has, for a raffle created at `createdAt`:
 * each transition of product.md's lifecycle that the status implies, a fixed number of days
 * apart; the ones it has not reached are null. Raffles that are still waiting for a start or
 * an end get it in DEMO_FAR_FUTURE.
 */
export function raffleTimeline(status: RaffleStatus, createdAt: Date): RaffleTimeline {
  const reached = (step: RaffleStatus) => {
    const order: RaffleStatus[] = ['draft', 'scheduled', 'open', 'closed', 'drawn', 'finalized'];
    return status !== 'cancelled' && order.indexOf(status) >= order.indexOf(step);
  };
  const published = status === 'cancelled' || reached('scheduled');
  const opened = status === 'cancelled' || reached('open');

  const timeline: RaffleTimeline = {
    publishedAt: published ? addDays(createdAt, 1) : null,
    startsAt: status === 'draft' ? null : opened ? addDays(createdAt, 2) : DEMO_FAR_FUTURE,
    openedAt: opened ? addDays(createdAt, 2) : null,
    endsAt: status === 'draft' ? null : reached('closed') || status === 'cancelled' ? addDays(createdAt, 9) : addDays(DEMO_FAR_FUTURE, 7),
    closedAt: reached('closed') ? addDays(createdAt, 9) : null,
    drawnAt: reached('drawn') ? addDays(createdAt, 10) : null,
    finalizedAt: reached('finalized') ? addDays(createdAt, 12) : null,
    cancelledAt: status === 'cancelled' ? addDays(createdAt, 5) : null,
    lastChangeAt: createdAt,
  };
  const changes = [timeline.publishedAt, timeline.openedAt, timeline.closedAt, timeline.drawnAt, timeline.finalizedAt, timeline.cancelledAt];
  timeline.lastChangeAt = new Date(Math.max(createdAt.getTime(), ...changes.map((d) => d?.getTime() ?? 0)));
  return timeline;
}
