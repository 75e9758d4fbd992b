import { chainHashOf, type BeaconChain } from '@raffle/beacon';
import type { BeaconRounds } from '../../src/index.js';
import { generateSecretKey, publicKeyOf, randomnessOf, signRound, UNCHAINED_G1_RFC9380 } from '@raffle/sdk';

/**
 * A beacon chain of the test's own whose every round is already published: it signs any round it
 * is asked for, with drand's scheme, so domain tests draw beacon raffles without waiting on a
 * clock. Tests of the waiting itself run against the real local beacon (management's tests).
 */
export function signingBeacon(): BeaconRounds & { chain: BeaconChain; secretKey: Uint8Array } {
  const secretKey = generateSecretKey();
  const publicKey = publicKeyOf(secretKey);
  const clock = { period: 3, genesisTime: 1_600_000_000 };
  const chainHash = chainHashOf({ publicKey, ...clock, groupHash: '00'.repeat(32), beaconId: 'domain-tests' });
  const chain: BeaconChain = { chainHash, publicKey, ...clock, scheme: UNCHAINED_G1_RFC9380 };
  return {
    chain,
    secretKey,
    async fetchRound(round) {
      const signature = signRound(secretKey, round);
      return { chainHash, round, signature, randomness: randomnessOf(signature) };
    },
  };
}
