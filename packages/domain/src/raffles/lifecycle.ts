import { randomBytes } from 'node:crypto';
import { QUICKNET, type BeaconChain } from '@raffle/beacon';
import { boundTransaction, STATEMENT_BOUNDS, type Db, type Tx } from '@raffle/db';
import { systemClock, type Clock } from '../clock.js';
import type { Principal } from '../principal.js';
import { cancelStep, closeStep, finalizeStep, openStep, publishStep } from './lifecycle-steps.js';
import { lockRaffleAs, requireRaffleManager, type RaffleRecord } from './raffle-locks.js';

/**
 * A raffle to move, and who moves it: owners and admins of its workspace, or the system.
 * `beacon` is the chain the service pins (BEACON_CHAIN), on which a close fixes the draw's round;
 * QUICKNET, that setting's default, when not given.
 */
export type RaffleTarget = { actor: Principal; raffleId: string; workspaceId?: string; clock?: Clock; beacon?: BeaconChain };

type Step = (tx: Tx, raffle: RaffleRecord, now: Date, beacon: BeaconChain) => Promise<RaffleRecord>;

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
 * the raffle locked and moved.
 */
const run =
  (step: Step) =>
  (db: Db, target: RaffleTarget): Promise<RaffleRecord> =>
    db.transaction(async (tx) => {
      await boundTransaction(tx, STATEMENT_BOUNDS.transition);
      const raffle = await lockRaffleAs(tx, target.actor, target);
      return step(tx, raffle, (target.clock ?? systemClock).now(), target.beacon ?? QUICKNET);
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

export const publishRaffle = run((tx, raffle, now) => publishStep(tx, raffle, now, randomBytes(32)));
export const openRaffle = run(openStep);
export const closeRaffle = run(closeStep);
export const finalizeRaffle = run(finalizeStep);
export const cancelRaffle = run(cancelStep);
