import { disqualifyEntry, enterRaffle, SEED, userPrincipal, withdrawEntry } from '@raffle/domain';
import type { Db } from '@raffle/db';
import type { PlannedRaffle } from '../plan/demo-plan.js';
import { demoStep, type DemoClock } from './demo-step.js';

type TimedStep = { at: Date; what: string; run: () => Promise<unknown> };

/**
 * Every entry of a raffle, and what later happens to it, in time order: the entry through
 * enterRaffle with the plan's id, source and IP hash (so the domain's duplicate check flags the
 * shared ones), withdrawals and disqualifications through their domain functions.
 */
export async function playEntries(db: Db, raffle: PlannedRaffle, clock: DemoClock): Promise<void> {
  const ref = { raffleId: raffle.id };
  const steps: TimedStep[] = [];
  for (const entry of raffle.entries) {
    // Each person enters and withdraws as themselves; the team's acts are the seed's.
    const entrant = userPrincipal(entry.person.id);
    steps.push({
      at: entry.createdAt,
      what: `the entry of ${entry.person.handle}`,
      run: () => enterRaffle(db, { id: entry.id, raffle: ref, actor: entrant, source: entry.source, ipHash: entry.ipHash, clock }),
    });
    const fate = entry.fate;
    if (fate?.status === 'withdrawn') {
      steps.push({ at: fate.at, what: `${entry.person.handle} withdrawing`, run: () => withdrawEntry(db, { raffle: ref, actor: entrant, clock }) });
    } else if (fate?.status === 'disqualified') {
      steps.push({
        at: fate.at,
        what: `disqualifying ${entry.person.handle}`,
        run: () => disqualifyEntry(db, { actor: SEED, workspaceId: raffle.spec.workspace.id, raffleId: raffle.id, entryId: entry.id, reason: fate.reason, clock }),
      });
    }
  }
  // Array.prototype.sort is stable: an entry made at the same instant as a withdrawal keeps its place.
  steps.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const step of steps) {
    clock.set(step.at);
    await demoStep(raffle, step.what, step.run);
  }
}
