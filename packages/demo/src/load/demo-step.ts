import type { manualClock } from '@raffle/domain';
import type { PlannedRaffle } from '../plan/demo-plan.js';

/** The clock a raffle's script walks: set to each step's moment before the step runs. */
export type DemoClock = ReturnType<typeof manualClock>;

/**
 * Runs one step of a raffle's script, naming the raffle and the step when it fails. Domain
 * refusals carry no stack trace, and "RAFFLE_NOT_OPEN" alone would not say which of the demo's
 * hundreds of steps the plan got wrong.
 */
export async function demoStep<T>(raffle: PlannedRaffle, what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`demo raffle ${raffle.spec.slug}: ${what} failed: ${message}`, { cause: error });
  }
}

/** A check that the domain did what the plan predicted; a mismatch means the plan's copy of a rule is wrong. */
export function expectPlanned(raffle: PlannedRaffle, what: string, actual: unknown, planned: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(planned)) {
    throw new Error(`demo raffle ${raffle.spec.slug}: ${what} differs from the plan: got ${JSON.stringify(actual)}, planned ${JSON.stringify(planned)}`);
  }
}
