import { startLocalBeacon, type LocalBeacon } from '@raffle/beacon';

/**
 * The platform's own randomness beacon: drand's HTTP API and signature scheme on a key of its
 * own, so `start` and the tests need no internet, while the services pin its chain and ask it as
 * a relay exactly as they would quicknet and drand's relays (docs/decisions/0022).
 */
export function startPlatformBeacon(options: { port: number; period: number; keyFile?: string }): Promise<LocalBeacon> {
  return startLocalBeacon({ host: '127.0.0.1', port: options.port, period: options.period, keyFile: options.keyFile });
}

/** The services' settings for a running beacon: its chain pinned, its URL the only relay. */
export const beaconServiceEnv = (beacon: Pick<LocalBeacon, 'chain' | 'url'>): Record<string, string> => ({
  BEACON_CHAIN: JSON.stringify(beacon.chain),
  BEACON_RELAYS: beacon.url,
});
