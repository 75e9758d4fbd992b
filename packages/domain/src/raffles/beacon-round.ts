import { roundAt, type BeaconChain } from '@raffle/beacon';

/**
 * Rounds between the one current at the close and the one the draw mixes in (decision 0022).
 * One would name a round due less than a period after the close, possibly before the close has
 * committed or on a clock slightly ahead of ours; two leave at least a whole period.
 */
export const BEACON_ROUNDS_AFTER_CLOSE = 2;

/** The round a raffle closing at `closedAt` on `chain` draws with: fixed at close, published after it. */
export const beaconRoundAtClose = (chain: BeaconChain, closedAt: Date): number =>
  roundAt(chain, Math.floor(closedAt.getTime() / 1000)) + BEACON_ROUNDS_AFTER_CLOSE;
