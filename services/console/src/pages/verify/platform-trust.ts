import { fetchPlatformBeaconChain, QUICKNET, verifyDraw, type DrawCommitmentRecord, type DrawProof, type DrawVerification, type TrustedBeaconChain } from '@raffle/sdk';

/**
 * The chains this page believes: drand's quicknet always, by the values pinned in the SDK, and the
 * chain this platform pins (`GET /public/v1/beacon`), which is quicknet in production and a local
 * beacon where the platform runs without the internet. A proof's own chain is never believed: a
 * round signed by any other key is refused as `untrusted_chain`, and a proof that names a trusted
 * chain's hash with another key as `chain_mismatch`.
 */
export async function chainsThisPageTrusts(): Promise<TrustedBeaconChain[]> {
  const platformChain = await fetchPlatformBeaconChain({ baseUrl: window.location.origin, maxRetries: 1 });
  return platformChain.chainHash === QUICKNET.chainHash ? [QUICKNET] : [QUICKNET, platformChain];
}

export type PlatformVerification = { verification: DrawVerification; trustedChains: TrustedBeaconChain[] };

/** verifyDraw with the chains this page trusts, held against the raffle's public commitment record when it has one. */
export async function verifyOnThisPlatform(proof: DrawProof, commitment?: DrawCommitmentRecord | null): Promise<PlatformVerification> {
  const trustedChains = await chainsThisPageTrusts();
  return { verification: verifyDraw(proof, { trustedChains, ...(commitment ? { commitment } : {}) }), trustedChains };
}
