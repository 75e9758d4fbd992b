import type { LocalRoundSigner } from '@raffle/beacon';
import type { Db } from '@raffle/db';
import { disqualifyWin, drawRaffle, finalizeRaffle, hasAllowlist, liveWinsOf, publishDueAllowlists, rerollWin, SEED, setWinDelivery } from '@raffle/domain';
import type { PlannedRaffle } from '../plan/demo-plan.js';
import { deliveryFor } from '../plan/demo-wins.js';
import { demoStep, expectPlanned, type DemoClock } from './demo-step.js';

/**
 * The draw at drawnAt (the team's selection for an application raffle), then the review the
 * story scripts: one winner disqualified and, when planned, the position rerolled.
 */
export async function playDraw(db: Db, raffle: PlannedRaffle, clock: DemoClock, rounds: LocalRoundSigner): Promise<void> {
  const { spec, draw } = raffle;
  const target = { actor: SEED, workspaceId: spec.workspace.id, raffleId: raffle.id, clock };
  clock.set(raffle.timeline.drawnAt!);
  const selection = draw.selection.length > 0 ? { entryIds: draw.selection } : undefined;
  await demoStep(raffle, 'the draw', () => drawRaffle(db, { ...target, selection, rounds }));
  if (spec.mechanic === 'raffle') {
    // The seed was searched against the plan's eligible set; a differing one would break the story.
    const drawn = (await liveWinsOf(db, raffle.id)).map((w) => w.entryId);
    expectPlanned(raffle, 'the drawn winners', drawn, draw.winners);
  }

  const review = draw.review;
  if (!review) return;
  const win = (await liveWinsOf(db, raffle.id)).find((w) => w.entryId === review.entryId);
  if (!win) throw new Error(`demo raffle ${spec.slug}: entry ${review.entryId} holds no win to disqualify`);
  clock.set(review.at);
  await demoStep(raffle, 'disqualifying a winner', () => disqualifyWin(db, { ...target, winId: win.id, reason: review.reason }));
  if (!review.reroll) return;
  clock.set(review.reroll.at);
  const { replacement } = await demoStep(raffle, 'the reroll', () => rerollWin(db, { ...target, winId: win.id }));
  expectPlanned(raffle, 'the reroll', replacement.entryId, review.reroll.entryId);
}

/**
 * finalize at finalizedAt; for an allowlist raffle, the builder publishing the list finalize
 * queued, as the scheduler's next pass would; then each finalized win's delivery as the spread in
 * deliveryFor says.
 */
export async function playFinalize(db: Db, raffle: PlannedRaffle, clock: DemoClock): Promise<void> {
  const finalizedAt = raffle.timeline.finalizedAt!;
  const target = { actor: SEED, workspaceId: raffle.spec.workspace.id, raffleId: raffle.id, clock };
  clock.set(finalizedAt);
  await demoStep(raffle, 'finalize', () => finalizeRaffle(db, target));
  if (hasAllowlist(raffle.spec)) {
    const onError = (_raffleId: string, error: unknown) => {
      throw error;
    };
    const published = await demoStep(raffle, 'publishing its allowlist', () => publishDueAllowlists(db, { clock, raffleId: raffle.id, onError }));
    expectPlanned(raffle, 'the allowlist versions published at finalize', published, 1);
  }
  for (const win of await liveWinsOf(db, raffle.id)) {
    const delivery = deliveryFor(raffle.spec, win, finalizedAt);
    if (!delivery) continue;
    clock.set(delivery.at);
    await demoStep(raffle, `the delivery of position ${win.position}`, () =>
      setWinDelivery(db, { ...target, winId: win.id, deliveryStatus: delivery.deliveryStatus, deliveryNote: delivery.deliveryNote }),
    );
  }
}
