import type { LocalRoundSigner } from '@raffle/beacon';
import { findWorkspaceRaffleRow, type Db } from '@raffle/db';
import { cancelRaffle, closeRaffle, createRaffle, lockRaffle, manualClock, openRaffle, publishRaffleIn, removeMember, SEED, userPrincipal } from '@raffle/domain';
import type { PlannedRaffle } from '../plan/demo-plan.js';
import { demoStep, expectPlanned } from './demo-step.js';
import { playEntries } from './play-entries.js';
import { playDraw, playFinalize } from './play-wins.js';

/** Publishes with the plan's seed, which the draw plan was searched for; otherwise as the publish route does. */
function publishWithSeed(db: Db, raffle: PlannedRaffle, at: Date) {
  return db.transaction(async (tx) => publishRaffleIn(tx, SEED, await lockRaffle(tx, { raffleId: raffle.id }), at, raffle.draw.seed));
}

/**
 * Plays one raffle's life through the domain, on a manual clock set to each moment of its
 * timeline: create, publish, open, entries, cancel or close, members leaving, draw and review,
 * finalize and deliveries. Each step obeys the same rules as the API's.
 */
export async function playRaffle(db: Db, raffle: PlannedRaffle, rounds: LocalRoundSigner): Promise<void> {
  const { spec, timeline: t } = raffle;
  const clock = manualClock(spec.createdAt);
  const target = { actor: SEED, workspaceId: spec.workspace.id, raffleId: raffle.id, clock, beacon: rounds.chain };

  await demoStep(raffle, 'create', () => createRaffle(db, { actor: SEED, workspaceId: spec.workspace.id, id: raffle.id, body: raffle.body, clock }));
  if (t.publishedAt) {
    const published = await demoStep(raffle, 'publish', () => publishWithSeed(db, raffle, t.publishedAt!));
    // startsAt lies after publish: the raffle waits, scheduled, until it is opened.
    if (t.openedAt && published.status === 'scheduled') {
      clock.set(t.openedAt);
      await demoStep(raffle, 'open', () => openRaffle(db, target));
    }
  }
  await playEntries(db, raffle, clock);
  if (t.cancelledAt) {
    clock.set(t.cancelledAt);
    await demoStep(raffle, 'cancel', () => cancelRaffle(db, target));
  }
  if (t.closedAt) {
    clock.set(t.closedAt);
    await demoStep(raffle, 'close', () => closeRaffle(db, target));
  }
  // Membership rows carry no time, so leaving needs no clock; it only has to precede the draw.
  for (const person of raffle.leavers) {
    await demoStep(raffle, `${person.handle} leaving`, () => removeMember(db, { workspaceId: spec.workspace.id, actor: userPrincipal(person.id), memberId: person.id }));
  }
  if (t.drawnAt) await playDraw(db, raffle, clock, rounds);
  if (t.finalizedAt) await playFinalize(db, raffle, clock);

  const row = await findWorkspaceRaffleRow(db, { workspaceId: spec.workspace.id, raffleId: raffle.id });
  expectPlanned(raffle, 'the final status', row?.status, spec.status);
}
