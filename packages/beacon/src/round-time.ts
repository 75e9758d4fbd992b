import type { BeaconChain } from './chain.js';

type ChainClock = Pick<BeaconChain, 'genesisTime' | 'period'>;

/** The round current at unix second `t`: round 1 starts at genesis; before genesis there is none (0). */
export function roundAt(chain: ChainClock, t: number): number {
  if (t < chain.genesisTime) return 0;
  return Math.floor((t - chain.genesisTime) / chain.period) + 1;
}

/** The unix second at which `round` is due (relays publish it moments later). */
export function timeOfRound(chain: ChainClock, round: number): number {
  if (!Number.isSafeInteger(round) || round < 1) throw new RangeError(`not a beacon round: ${round}`);
  return chain.genesisTime + (round - 1) * chain.period;
}
