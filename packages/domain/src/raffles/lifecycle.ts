import { randomBytes } from 'node:crypto';
import type { DashboardRaffle } from '@raffle/contracts';
import { QUICKNET, type BeaconChain } from '@raffle/beacon';
import { boundTransaction, STATEMENT_BOUNDS, toDashboardRaffle, type Db, type RaffleContext, type Tx } from '@raffle/db';
import { systemClock, type Clock } from '../clock.js';
import type { Principal } from '../principal.js';
import { cancelStep, closeStep, finalizeStep, openStep, publishStep } from './lifecycle-steps.js';
import { lockRaffleWithContextAs, requireRaffleManager, type RaffleLockTarget, type RaffleRecord } from './raffle-locks.js';

/**
 * A raffle to move, and who moves it: owners and admins of its workspace, or the system.
 * `beacon` is the chain the service pins (BEACON_CHAIN), on which a close fixes the draw's round;
 * QUICKNET, that setting's default, when not given. `actorRole`: see RaffleLockTarget.
 */
export type RaffleTarget = RaffleLockTarget & { actor: Principal; clock?: Clock; beacon?: BeaconChain };

/** A raffle after a transition, and the team's view of it, rendered from the row and the context locked with it. */
export type MovedRaffle = { raffle: RaffleRecord; dashboard: DashboardRaffle };

type Step = (tx: Tx, raffle: RaffleRecord, now: Date, beacon: BeaconChain, context?: RaffleContext) => Promise<RaffleRecord>;

/** A transition inside the caller's transaction, on a raffle it has locked: the actor is checked first. */
const within =
  (step: Step) =>
  async (tx: Tx, actor: Principal, raffle: RaffleRecord, now: Date, beacon: BeaconChain = QUICKNET): Promise<RaffleRecord> => {
    await requireRaffleManager(tx, actor, raffle);
    return step(tx, raffle, now, beacon);
  };

/**
 * A transition in a transaction of its own, bounded as a transition (it may wait for the raffle's
 * row and rewrite its wins longer than a request's statements may): the actor is checked, then
 * the raffle locked with its context and moved. The row, its workspace and project are read once,
 * in the lock; the step writes from them and the answer is rendered from them (issue 26).
 */
const run =
  (step: Step) =>
  (db: Db, target: RaffleTarget): Promise<MovedRaffle> =>
    db.transaction(async (tx) => {
      await boundTransaction(tx, STATEMENT_BOUNDS.transition);
      const { raffle, context } = await lockRaffleWithContextAs(tx, target.actor, target);
      const moved = await step(tx, raffle, (target.clock ?? systemClock).now(), target.beacon ?? QUICKNET, context);
      return { raffle: moved, dashboard: toDashboardRaffle(moved, context) };
    });

/**
 * draft → scheduled, or straight to open when it starts now. The draw seed is generated here
 * unless a seed (the demo's fixed one) is passed.
 */
export async function publishRaffleIn(tx: Tx, actor: Principal, raffle: RaffleRecord, now: Date, seed: Buffer = randomBytes(32)): Promise<RaffleRecord> {
  await requireRaffleManager(tx, actor, raffle);
  return publishStep(tx, raffle, now, seed);
}

export const openRaffleIn = within(openStep);
export const closeRaffleIn = within(closeStep);
export const finalizeRaffleIn = within(finalizeStep);
export const cancelRaffleIn = within(cancelStep);

/** The transitions that take no options, each answering the raffle moved and its rendering (the dashboard's routes answer that). */
export const RAFFLE_TRANSITIONS = {
  publish: run((tx, raffle, now, _beacon, context) => publishStep(tx, raffle, now, randomBytes(32), context)),
  open: run(openStep),
  close: run(closeStep),
  finalize: run(finalizeStep),
  cancel: run(cancelStep),
} as const satisfies Record<string, (db: Db, target: RaffleTarget) => Promise<MovedRaffle>>;

const rowOf =
  (transition: (db: Db, target: RaffleTarget) => Promise<MovedRaffle>) =>
  async (db: Db, target: RaffleTarget): Promise<RaffleRecord> =>
    (await transition(db, target)).raffle;

export const publishRaffle = rowOf(RAFFLE_TRANSITIONS.publish);
export const openRaffle = rowOf(RAFFLE_TRANSITIONS.open);
export const closeRaffle = rowOf(RAFFLE_TRANSITIONS.close);
export const finalizeRaffle = rowOf(RAFFLE_TRANSITIONS.finalize);
export const cancelRaffle = rowOf(RAFFLE_TRANSITIONS.cancel);
