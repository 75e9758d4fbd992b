import { generateSecretKey, localBeaconIdentity, startLocalBeacon, type LocalBeacon } from '@raffle/beacon';
import { DEMO_BEACON_GENESIS, type DemoBeacon } from './db.js';

/** A running local beacon, and its identity for the demo loader, which signs the demo's past rounds with it. */
export type PlatformBeacon = LocalBeacon & { demoBeacon: DemoBeacon };

/**
 * The platform's own randomness beacon: drand's HTTP API and signature scheme on a key of its
 * own, so `start` and the tests need no internet, while the services pin its chain and ask it as
 * a relay exactly as they would quicknet and drand's relays (docs/decisions/0022). A new key's
 * genesis is the demo's (before the demo's oldest close), so the demo's raffles close on this
 * chain's real rounds; a key file keeps its own genesis.
 */
export async function startPlatformBeacon(options: { port: number; period: number; keyFile?: string }): Promise<PlatformBeacon> {
  const identity = options.keyFile
    ? await localBeaconIdentity(options.keyFile, DEMO_BEACON_GENESIS)
    : { secretKey: generateSecretKey(), genesisTime: DEMO_BEACON_GENESIS };
  const beacon = await startLocalBeacon({ host: '127.0.0.1', port: options.port, period: options.period, ...identity });
  return Object.assign(beacon, { demoBeacon: { ...identity, period: options.period } });
}

/** The services' settings for a running beacon: its chain pinned, its URL the only relay. */
export const beaconServiceEnv = (beacon: Pick<LocalBeacon, 'chain' | 'url'>): Record<string, string> => ({
  BEACON_CHAIN: JSON.stringify(beacon.chain),
  BEACON_RELAYS: beacon.url,
});
