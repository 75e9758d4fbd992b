const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The "now" of the demo world. Every event that has happened in it lies on or before this
 * instant, which is fixed so that reloading produces identical rows.
 */
export const DEMO_NOW = new Date('2026-09-01T12:00:00.000Z');

/**
 * Where open and scheduled demo raffles end or start. Far ahead so that the lifecycle
 * scheduler never moves them during the lifetime of a development database.
 */
export const DEMO_FAR_FUTURE = new Date('2031-03-01T16:00:00.000Z');

export const daysBeforeDemoNow = (days: number): Date => new Date(DEMO_NOW.getTime() - days * DAY_MS);

export const addDays = (at: Date, days: number): Date => new Date(at.getTime() + days * DAY_MS);

export const addHours = (at: Date, hours: number): Date => new Date(at.getTime() + hours * HOUR_MS);

/** The `index`-th of `count` instants spread evenly over [from, to), so arrival order follows index order. */
export function spreadOver(from: Date, to: Date, index: number, count: number): Date {
  const step = (to.getTime() - from.getTime()) / Math.max(count, 1);
  return new Date(Math.floor(from.getTime() + step * index + step / 3));
}
