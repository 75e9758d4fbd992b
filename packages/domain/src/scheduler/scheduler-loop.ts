import type { BeaconChain } from '@raffle/beacon';
import type { Db, DueRaffleKind } from '@raffle/db';
import type { Clock } from '../clock.js';
import type { BeaconRounds } from '../raffles/draw-beacon.js';
import type { ChainReader } from '@raffle/chain';
import { createBeaconWaits } from './beacon-waits.js';
import { createChainWaits } from './chain-waits.js';
import { createProviderDrawWaits } from './provider-waits.js';
import type { SocialCheck } from '../requirements/social/social-verdicts.js';
import { runDueTransitions, type SchedulerPass } from './due-transitions.js';

export type RaffleScheduler = {
  /** Runs one pass now (after any pass in progress); tests and the start-up catch-up use it. */
  tick(): Promise<SchedulerPass>;
  /** Stops the timer and waits for a pass in progress to finish. */
  stop(): Promise<void>;
};

/**
 * Runs a pass every `intervalMs`, never two at once in one process. The first pass runs at
 * start, which is the catch-up after downtime: every deadline missed meanwhile is due.
 */
export function startRaffleScheduler(options: {
  db: Db;
  clock: Clock;
  /** The pinned chain closes by schedule fix the draw's round on. */
  beacon?: BeaconChain;
  /** The pinned chain's relay client: auto-draws wait for their beacon round through it. */
  rounds?: BeaconRounds;
  /** Reads the chains on-chain requirements name: auto-draws of such raffles wait for their close blocks through it. */
  chainReader?: ChainReader;
  /** Reads Discord and X with the entrants' linked accounts: auto-draws of such raffles re-read them through it. */
  social?: SocialCheck;
  intervalMs: number;
  onPass?: (pass: SchedulerPass) => void;
  onError?: (raffleId: string | null, error: unknown) => void;
  onTransition?: (name: DueRaffleKind, lagMs: number) => void;
}): RaffleScheduler {
  let running: Promise<SchedulerPass> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const beaconWaits = createBeaconWaits();
  const chainWaits = createChainWaits();
  const providerWaits = createProviderDrawWaits();

  const tick = async (): Promise<SchedulerPass> => {
    while (running) await running.catch(() => undefined);
    running = runDueTransitions(options.db, {
      clock: options.clock,
      beacon: options.beacon,
      rounds: options.rounds,
      beaconWaits,
      chainReader: options.chainReader,
      chainWaits,
      social: options.social,
      providerWaits,
      onError: options.onError,
      onTransition: options.onTransition,
    });
    try {
      const pass = await running;
      options.onPass?.(pass);
      return pass;
    } finally {
      running = null;
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      tick()
        .catch((error) => options.onError?.(null, error))
        .finally(schedule);
    }, options.intervalMs);
    timer.unref();
  };

  void tick()
    .catch((error) => options.onError?.(null, error))
    .finally(schedule);

  return {
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      while (running) await running.catch(() => undefined);
    },
  };
}
