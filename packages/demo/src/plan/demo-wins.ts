import type { DeliveryStatus } from '@raffle/contracts';
import { beaconMixedSeed, rankEntries, type DrawBeaconRound, type DrawEntry } from '@raffle/sdk';
import { addDays, addHours } from './demo-clock.js';
import { demoBytes, demoHex } from './demo-derive.js';
import type { PlannedEntry } from './demo-entries.js';
import type { DemoRaffleSpec } from './demo-raffle-catalogue.js';
import { meetsRequirements, type RequirementFacts } from './demo-requirements.js';
import type { RaffleTimeline } from './raffle-timeline.js';

/** A winner disqualified in review, and the reroll that takes the position when the story has one. */
export type PlannedReview = {
  position: number;
  entryId: string;
  reason: string;
  at: Date;
  reroll: { entryId: string; at: Date } | null;
};

export type DrawPlan = {
  /** Handed to publish: its commitment is public from then on, and the draw ranks with it. */
  seed: Buffer;
  /** `raffle` mechanic: the entries the draw selects, in position order (empty otherwise). */
  winners: string[];
  /** `application` mechanic: the entries the team selects, in position order (empty otherwise). */
  selection: string[];
  review: PlannedReview | null;
};

const MAX_SEED_ATTEMPTS = 10_000;

const seedAttempt = (slug: string, attempt: number): Buffer => demoBytes(`draw-seed:${slug}:${attempt}`, 32);

/**
 * The draw's eligible set, as the domain builds it: entries still valid after the re-check (not
 * withdrawn or disqualified, requirements met at the draw), minus flagged duplicates when the
 * raffle excludes them. Weights are "1": the demo's requirements carry no multipliers.
 */
export function drawEligible(spec: DemoRaffleSpec, entries: PlannedEntry[], atDraw: RequirementFacts): DrawEntry[] {
  return entries
    .filter((e) => e.fate === null && meetsRequirements(spec.requirements, e.person, atDraw))
    .filter((e) => !(spec.settings.excludeFlaggedDuplicates && e.flagged))
    .map((e) => ({ id: e.id, userId: e.person.id, weight: '1' }));
}

/**
 * The draw of a `raffle`-mechanic raffle. The seed is the first of a fixed sequence under which
 * the story holds (who must win, who must not), so the winners are both scripted and exactly what
 * the published commitment and the algorithm produce.
 */
function planWeightedDraw(spec: DemoRaffleSpec & { outcome: { kind: 'draw' } }, t: RaffleTimeline, eligible: DrawEntry[], round: DrawBeaconRound | null): DrawPlan {
  if (!round) throw new Error(`${spec.slug} is drawn, so it must close (its close fixes the beacon round the draw mixes in)`);
  const { outcome } = spec;
  const mustWin = new Set(outcome.mustWin.map((p) => p.id));
  const mustLose = new Set(outcome.mustLose.map((p) => p.id));
  const dq = outcome.disqualifiedWinner;

  for (let attempt = 0; attempt < MAX_SEED_ATTEMPTS; attempt++) {
    const seed = seedAttempt(spec.slug, attempt);
    // es-hmac-sha256-drand-v1, as the draw will rank: the seed mixed with the close's round.
    const ranking = rankEntries(beaconMixedSeed(seed, round), eligible);
    const winners = ranking.slice(0, spec.spots);
    // A reroll takes the next entry in draw order: the first beyond the winners.
    const next = ranking[spec.spots];
    const winnerUsers = new Set(winners.map((w) => w.userId));
    if ([...mustWin].some((id) => !winnerUsers.has(id)) || [...mustLose].some((id) => winnerUsers.has(id))) continue;
    if (dq?.rerolled && (!next || mustLose.has(next.userId))) continue;

    let review: PlannedReview | null = null;
    if (dq) {
      // The disqualified winner is never one the story needs to keep.
      const index = winners.findIndex((w, i) => i + 1 >= dq.fromPosition && !mustWin.has(w.userId));
      if (index < 0) continue;
      const at = addHours(t.drawnAt!, 20);
      review = { position: index + 1, entryId: winners[index]!.id, reason: dq.reason, at, reroll: dq.rerolled ? { entryId: next!.id, at: addHours(at, 2) } : null };
    }
    return { seed, winners: winners.map((w) => w.id), selection: [], review };
  }
  throw new Error(`no draw seed for ${spec.slug} satisfies the demo story within ${MAX_SEED_ATTEMPTS} attempts`);
}

/** What the draw of one raffle will do, and the seed its commitment is published for. */
export function planDraw(spec: DemoRaffleSpec, t: RaffleTimeline, entries: PlannedEntry[], atDraw: RequirementFacts, round: DrawBeaconRound | null): DrawPlan {
  const { outcome } = spec;
  const plain: DrawPlan = { seed: seedAttempt(spec.slug, 0), winners: [], selection: [], review: null };
  switch (outcome.kind) {
    case 'none':
    case 'arrival':
      // No draw, or one whose winners follow arrival order (FCFS at entry, a collection at the draw).
      return plain;
    case 'draw':
      return planWeightedDraw({ ...spec, outcome }, t, drawEligible(spec, entries, atDraw), round);
    case 'manual': {
      const selection = outcome.winners.map((person) => {
        const entry = entries.find((e) => e.person.id === person.id && e.fate === null);
        if (!entry) throw new Error(`${person.handle} has no valid entry in ${spec.slug} to be selected`);
        return entry.id;
      });
      return { ...plain, selection };
    }
  }
}

function deliveredNote(spec: DemoRaffleSpec, position: number): string | null {
  const label = `${spec.slug}:${position}`;
  switch (spec.allocationType) {
    case 'allowlist_gtd':
    case 'allowlist_fcfs':
      return 'Wallet added to the allowlist';
    case 'airdrop':
      return `Airdropped in transaction 0x${demoHex(`tx:${label}`, 32)}`;
    case 'physical':
      return `Shipped, tracking number KT${demoHex(`parcel:${label}`, 5).toUpperCase()}`;
    default:
      return null;
  }
}

export type PlannedDelivery = { deliveryStatus: Exclude<DeliveryStatus, 'not_applicable'>; deliveryNote: string | null; at: Date };

/**
 * The delivery state of one finalized win, spread over positions so lists show every state;
 * null leaves it pending as finalize made it.
 */
export function deliveryFor(spec: DemoRaffleSpec, win: { position: number; userId: string }, finalizedAt: Date): PlannedDelivery | null {
  const { position } = win;
  const override = spec.deliveryOverrides?.get(win.userId);
  const status = override?.deliveryStatus ?? (position % 6 === 0 ? 'processing' : position === 13 ? 'failed' : position % 7 === 0 ? 'pending' : 'delivered');
  const note =
    override?.deliveryNote ??
    (status === 'failed'
      ? 'The wallet rejected the delivery; support is in touch with the winner'
      : status === 'delivered'
        ? deliveredNote(spec, position)
        : null);
  if (status === 'pending' && note === null) return null;
  const at = status === 'delivered' ? addDays(finalizedAt, 1 + (position % 3)) : addDays(finalizedAt, 1);
  return { deliveryStatus: status, deliveryNote: note, at };
}
