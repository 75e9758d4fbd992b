import { localBeaconChain, type BeaconChain } from '@raffle/beacon';
import { beaconRoundForClose, randomnessOf, signRound, type DrawBeaconRound } from '@raffle/sdk';
import { demoBytes } from './demo-derive.js';

/**
 * The local beacon the demo's raffles close on and draw with: its key, period and genesis. The
 * demo's draws lie in the past, so every round they need is long due: the loader signs them with
 * the beacon's own key, and they are exactly the rounds the running beacon serves (the same key,
 * period and genesis make the same chain). `start` passes its local beacon's identity (the key
 * file under .data), so the demo's proofs name the chain it pins.
 */
export type DemoBeacon = { secretKey: Uint8Array; period: number; genesisTime: number };

/**
 * Before the demo's oldest close, so its rounds are real rounds of the chain (round ≥ 1 at every
 * close), and fixed: a beacon created with it is the same chain on every machine that has its key.
 */
export const DEMO_BEACON_GENESIS = Date.UTC(2025, 0, 1) / 1000;

/**
 * A key derived from the demo's own seed, for a dataset computed without a running beacon (the
 * demo's tests, and any plan made only to read the demo's ids). Public, so its rounds are
 * predictable: never a chain to pin for anything but the demo. The top bits are cleared so the
 * scalar lies below the BLS12-381 group order.
 */
export const DEFAULT_DEMO_BEACON: DemoBeacon = {
  secretKey: Uint8Array.from(demoBytes('local-beacon-key', 32), (byte, i) => (i === 0 ? byte & 0x3f : byte)),
  period: 3,
  genesisTime: DEMO_BEACON_GENESIS,
};

export const demoBeaconChain = (beacon: DemoBeacon): BeaconChain => localBeaconChain(beacon.secretKey, beacon.period, beacon.genesisTime);

/** The round a raffle closing at `closedAt` draws with, signed: what its draw will fetch. */
export function demoDrawRound(beacon: DemoBeacon, chain: BeaconChain, closedAt: Date): DrawBeaconRound {
  const round = beaconRoundForClose(chain, closedAt);
  return { chainHash: chain.chainHash, round, randomness: randomnessOf(signRound(beacon.secretKey, round)) };
}
