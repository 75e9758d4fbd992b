import type { BeaconChain, VerifiedRound } from '@raffle/beacon';
import type { DrawBeaconRecord } from '@raffle/db';
import { beaconMixedSeed, DRAND_DRAW_ALGORITHM, DRAW_ALGORITHM } from '@raffle/sdk';
import type { RaffleRecord } from './raffle-locks.js';

/**
 * Where a draw gets its beacon round: @raffle/beacon's relay client, which answers only rounds
 * whose signature verified against the pinned chain (or throws BeaconRoundPending /
 * BeaconUnavailable).
 */
export type BeaconRounds = { readonly chain: BeaconChain; fetchRound(round: number): Promise<VerifiedRound> };

/** A weighted raffle closed with a beacon round draws with it; one closed before rounds existed does not (decision 0023). */
const drawsWithBeacon = (raffle: RaffleRecord): raffle is RaffleRecord & { beaconRound: number } => raffle.mechanic === 'raffle' && raffle.beaconRound !== null;

/**
 * The round the raffle's draw mixes in, fetched and verified, as the proof will show it; null when
 * its draw takes none. Called outside any transaction: waiting on relays must never hold the
 * raffle's row lock.
 */
export async function fetchDrawBeacon(rounds: BeaconRounds | undefined, raffle: RaffleRecord): Promise<DrawBeaconRecord | null> {
  if (!drawsWithBeacon(raffle)) return null;
  if (!rounds) throw new Error(`raffle ${raffle.id} draws with beacon round ${raffle.beaconRound}, and no beacon client was given to fetch it`);
  const { chainHash, publicKey, period, genesisTime } = rounds.chain;
  if (raffle.beaconChainHash !== chainHash) {
    throw new Error(
      `raffle ${raffle.id} closed on beacon chain ${raffle.beaconChainHash}, but this service pins ${chainHash}: only a deployment pinning that chain can draw it`,
    );
  }
  const round = await rounds.fetchRound(raffle.beaconRound);
  return { chainHash, publicKey, period, genesisTime, round: round.round, signature: round.signature, randomness: round.randomness };
}

/**
 * The key every entry's HMAC is taken with, and the algorithm it makes: the seed mixed with the
 * round (`es-hmac-sha256-drand-v1`) when the draw has one, the seed alone (`es-hmac-sha256-v1`)
 * for raffles closed before beacon rounds. A round that is not the raffle's is refused.
 */
export function drawRankingKey(raffle: RaffleRecord, beacon: DrawBeaconRecord | null): { key: Buffer; algorithm: string } {
  if (!raffle.drawSeed) throw new Error(`raffle ${raffle.id} was published without a draw seed`);
  const seed = Buffer.from(raffle.drawSeed, 'hex');
  if (raffle.beaconRound === null) {
    if (beacon !== null) throw new Error(`raffle ${raffle.id} has no beacon round, so its draw cannot take one`);
    // Its public record promises a beacon draw (bound at publish): a seed-only draw would break it.
    if (raffle.drawAlgorithm === DRAND_DRAW_ALGORITHM) throw new Error(`raffle ${raffle.id} was published for ${DRAND_DRAW_ALGORITHM} and closed without a beacon round`);
    return { key: seed, algorithm: DRAW_ALGORITHM };
  }
  if (beacon === null || beacon.round !== raffle.beaconRound || beacon.chainHash !== raffle.beaconChainHash) {
    throw new Error(`raffle ${raffle.id} draws with round ${raffle.beaconRound} of chain ${raffle.beaconChainHash}, and was given ${beacon ? `round ${beacon.round} of ${beacon.chainHash}` : 'none'}`);
  }
  return { key: Buffer.from(beaconMixedSeed(seed, beacon)), algorithm: DRAND_DRAW_ALGORITHM };
}

/** The key a drawn raffle's frozen order was ranked with (rerolls walk the same order): its snapshot says whether a round was mixed in. */
export function snapshotRankingKey(drawSeed: string, beacon: DrawBeaconRecord | null): Buffer {
  const seed = Buffer.from(drawSeed, 'hex');
  return beacon === null ? seed : Buffer.from(beaconMixedSeed(seed, beacon));
}

/** The beacon round the raffle's draw waits for, or null when its draw takes none. */
export const drawBeaconRoundOf = (raffle: RaffleRecord): number | null => (drawsWithBeacon(raffle) ? raffle.beaconRound : null);
