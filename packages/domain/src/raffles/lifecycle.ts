import { randomBytes } from 'node:crypto';
import { appendEvents, updateRaffle, type Db, type NewEvent } from '@raffle/db';
import { drawCommitment } from '@raffle/sdk';
import { systemClock, type Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import { raffleEvent } from '../events/resource-events.js';
import { disqualifyLiveWin, finalizeSelectedWins, liveWinsOf } from '../wins/win-transitions.js';
import { lockRaffle, type RaffleRecord } from './raffle-locks.js';
import { assertRaffleCan } from './transitions.js';

export type RaffleTarget = { raffleId: string; workspaceId?: string; clock?: Clock };
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * draft → scheduled, or straight to open when it starts now. The draw seed is generated here and
 * only its commitment is shown until the draw: the team cannot pick a seed after seeing entries.
 */
export async function publishRaffleIn(tx: Tx, raffle: RaffleRecord, now: Date, seed: Buffer = randomBytes(32)): Promise<RaffleRecord> {
  assertRaffleCan('publish', raffle.status);
  if (raffle.endsAt && raffle.endsAt <= now) {
    throw new DomainError('RAFFLE_CANNOT_PUBLISH', 'endsAt is in the past; move it before publishing');
  }
  const startsNow = !raffle.startsAt || raffle.startsAt <= now;
  const published = await updateRaffle(tx, raffle.id, {
    status: startsNow ? 'open' : 'scheduled',
    publishedAt: now,
    openedAt: startsNow ? now : null,
    drawSeed: seed.toString('hex'),
    drawCommitment: drawCommitment(seed),
    updatedAt: now,
  });
  const events: NewEvent[] = [raffleEvent('raffle.published', published!, now)];
  if (startsNow) events.push(raffleEvent('raffle.opened', published!, now));
  await appendEvents(tx, events);
  return published!;
}

export async function openRaffleIn(tx: Tx, raffle: RaffleRecord, now: Date): Promise<RaffleRecord> {
  assertRaffleCan('open', raffle.status);
  const opened = await updateRaffle(tx, raffle.id, { status: 'open', openedAt: now, updatedAt: now });
  await appendEvents(tx, [raffleEvent('raffle.opened', opened!, now)]);
  return opened!;
}

export async function closeRaffleIn(tx: Tx, raffle: RaffleRecord, now: Date): Promise<RaffleRecord> {
  assertRaffleCan('close', raffle.status);
  const closed = await updateRaffle(tx, raffle.id, { status: 'closed', closedAt: now, updatedAt: now });
  await appendEvents(tx, [raffleEvent('raffle.closed', closed!, now)]);
  return closed!;
}

/** drawn → finalized: every selected win becomes final and its delivery can start. */
export async function finalizeRaffleIn(tx: Tx, raffle: RaffleRecord, now: Date): Promise<RaffleRecord> {
  assertRaffleCan('finalize', raffle.status);
  const finalized = await updateRaffle(tx, raffle.id, { status: 'finalized', finalizedAt: now, updatedAt: now });
  const winEvents = await finalizeSelectedWins(tx, raffle, now);
  await appendEvents(tx, [raffleEvent('raffle.finalized', finalized!, now), ...winEvents]);
  return finalized!;
}

/** A cancelled raffle grants nothing: wins an FCFS raffle already handed out are disqualified. */
export async function cancelRaffleIn(tx: Tx, raffle: RaffleRecord, now: Date): Promise<RaffleRecord> {
  assertRaffleCan('cancel', raffle.status);
  const cancelled = await updateRaffle(tx, raffle.id, { status: 'cancelled', cancelledAt: now, updatedAt: now });
  const events: NewEvent[] = [raffleEvent('raffle.cancelled', cancelled!, now)];
  for (const win of await liveWinsOf(tx, raffle.id)) {
    events.push(...(await disqualifyLiveWin(tx, win, raffle, 'The raffle was cancelled', now)).events);
  }
  await appendEvents(tx, events);
  return cancelled!;
}

type Step = (tx: Tx, raffle: RaffleRecord, now: Date) => Promise<RaffleRecord>;

const run = (step: Step) => (db: Db, target: RaffleTarget): Promise<RaffleRecord> =>
  db.transaction(async (tx) => {
    const raffle = await lockRaffle(tx, target);
    return step(tx, raffle, (target.clock ?? systemClock).now());
  });

export const publishRaffle = run((tx, raffle, now) => publishRaffleIn(tx, raffle, now));
export const openRaffle = run(openRaffleIn);
export const closeRaffle = run(closeRaffleIn);
export const finalizeRaffle = run(finalizeRaffleIn);
export const cancelRaffle = run(cancelRaffleIn);
