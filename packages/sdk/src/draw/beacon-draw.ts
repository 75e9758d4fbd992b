import { hmacSha256 } from '../crypto/hash.js';

/**
 * The draw with a beacon round mixed in (product design, `es-hmac-sha256-drand-v1`): the ranking of
 * `es-hmac-sha256-v1` keyed with `HMAC-SHA256(seed, "drand:" + chainHash + ":" + round + ":" +
 * randomness)` instead of the seed. Whoever holds the seed still cannot rank an entry before the
 * round is published, which is after entries closed.
 */
export const DRAND_DRAW_ALGORITHM = 'es-hmac-sha256-drand-v1';

/** The part of a verified beacon round the draw's key depends on. */
export type DrawBeaconRound = { chainHash: string; round: number; randomness: string };

/** The key every entry's HMAC is taken with under `es-hmac-sha256-drand-v1`. */
export const beaconMixedSeed = (seed: Uint8Array, beacon: DrawBeaconRound): Uint8Array =>
  hmacSha256(seed, `drand:${beacon.chainHash}:${beacon.round}:${beacon.randomness}`);
