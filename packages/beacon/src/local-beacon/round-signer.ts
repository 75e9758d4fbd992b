import { generateSecretKey, publicKeyOf, randomnessOf, signRound, UNCHAINED_G1_RFC9380, type BeaconChain } from '@raffle/sdk';
import { chainHashOf } from '../chain.js';
import type { VerifiedRound } from '../beacon-client.js';
import { localGroupHash } from './beacon-identity.js';

/** Names the chain in its `/info`, so nobody mistakes it for the League of Entropy's. */
export const LOCAL_BEACON_ID = 'raffle-local';

/** The chain a local beacon with this key, period and genesis is: the same hash as startLocalBeacon's. */
export function localBeaconChain(secretKey: Uint8Array, period: number, genesisTime: number): BeaconChain {
  const publicKey = publicKeyOf(secretKey);
  const chainHash = chainHashOf({ publicKey, period, genesisTime, groupHash: localGroupHash(publicKey), beaconId: LOCAL_BEACON_ID });
  return { chainHash, publicKey, period, genesisTime, scheme: UNCHAINED_G1_RFC9380 };
}

export type LocalRoundSigner = {
  readonly chain: BeaconChain;
  readonly secretKey: Uint8Array;
  /** Any round, signed at once, whatever the clock says (the shape of BeaconClient.fetchRound). */
  fetchRound(round: number): Promise<VerifiedRound>;
};

/**
 * A local beacon's chain without its server or its clock: it signs whichever round it is asked
 * for. For domain tests that draw without waiting for a round's time, and for loading demo data
 * whose closes lie in the past, where every round asked for is long due anyway. Its signatures
 * are the local beacon's (the same key gives the same chain and the same rounds), so they verify
 * exactly like rounds fetched from it.
 */
export function localRoundSigner(options: { secretKey?: Uint8Array; period?: number; genesisTime?: number } = {}): LocalRoundSigner {
  const secretKey = options.secretKey ?? generateSecretKey();
  const chain = localBeaconChain(secretKey, options.period ?? 3, options.genesisTime ?? 1_600_000_000);
  return {
    chain,
    secretKey,
    async fetchRound(round) {
      const signature = signRound(secretKey, round);
      return { chainHash: chain.chainHash, round, signature, randomness: randomnessOf(signature) };
    },
  };
}
