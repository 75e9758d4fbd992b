import { DRAND_DRAW_ALGORITHM, QUICKNET, UNCHAINED_G1_RFC9380, verifyDraw, type DrawProof, type DrawVerification, type TrustedBeaconChain } from '@raffle/sdk';

/** How the page names a chain other than quicknet: the platform's own, and plainly not drand's. */
export const PLATFORM_BEACON_NAME = 'a local beacon run by this platform';

/**
 * The chains this page believes for a proof. drand's quicknet always, by the values pinned in the
 * SDK, never the proof's. Any other chain only as the platform's own local beacon: the page has no
 * second source for the platform's pinned chain (the console and the data plane publish none), and
 * the proof comes from the same origin as this page, so "the platform says so" is all such a chain
 * can rest on; the page says exactly that. A proof that names quicknet's hash is never given its
 * own key: it is judged against quicknet's, so a forger's key fails as `chain_mismatch`.
 */
export function chainsThisPageTrusts(proof: DrawProof): TrustedBeaconChain[] {
  const beacon = proof.algorithm === DRAND_DRAW_ALGORITHM ? (proof.beacon as Partial<NonNullable<DrawProof['beacon']>> | undefined) : undefined;
  if (!beacon || typeof beacon !== 'object' || typeof beacon.chainHash !== 'string' || beacon.chainHash === QUICKNET.chainHash) return [QUICKNET];
  const { chainHash, publicKey, period, genesisTime } = beacon;
  if (typeof publicKey !== 'string' || typeof period !== 'number' || typeof genesisTime !== 'number') return [QUICKNET];
  return [QUICKNET, { chainHash, publicKey, period, genesisTime, scheme: UNCHAINED_G1_RFC9380, name: PLATFORM_BEACON_NAME }];
}

export type PlatformVerification = { verification: DrawVerification; trustedChains: TrustedBeaconChain[] };

/** verifyDraw with the chains this page trusts for the proof. */
export function verifyOnThisPlatform(proof: DrawProof): PlatformVerification {
  const trustedChains = chainsThisPageTrusts(proof);
  return { verification: verifyDraw(proof, { trustedChains }), trustedChains };
}
