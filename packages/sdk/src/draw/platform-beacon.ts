import type { components } from '../generated/data-plane.js';
import { QUICKNET, UNCHAINED_G1_RFC9380 } from './beacon-chain.js';
import type { TrustedBeaconChain } from '../verify-draw.js';
import { publicHttpClient } from './public-http-client.js';

export type PlatformBeaconChain = components['schemas']['PlatformBeaconChain'];

export type FetchPlatformBeaconOptions = {
  /** Where the data plane listens (default `http://localhost:3000`). */
  baseUrl?: string;
  fetch?: typeof fetch;
  maxRetries?: number;
  timeoutMs?: number;
};

/** The name a verifier's report gives a platform's own beacon: plainly not the League of Entropy. */
export const PLATFORM_BEACON_NAME = 'a local beacon run by this platform';

/**
 * The beacon chain a platform pins (`GET {baseUrl}/public/v1/beacon`), as a chain to trust. Trusting
 * it means trusting that platform's beacon: drand's quicknet (then the SDK's pinned quicknet values
 * are returned, not the answer's) or a beacon its operator runs. Pass it in `trustedChains` only
 * when that is what you mean; a proof's own chain is never trusted.
 */
export async function fetchPlatformBeaconChain(options: FetchPlatformBeaconOptions = {}): Promise<TrustedBeaconChain> {
  const http = publicHttpClient(options);
  const chain = await http.request<PlatformBeaconChain>({ method: 'GET', path: '/public/v1/beacon' });
  if (chain.chainHash === QUICKNET.chainHash) return QUICKNET;
  const { chainHash, publicKey, period, genesisTime } = chain;
  return { chainHash, publicKey, period, genesisTime, scheme: UNCHAINED_G1_RFC9380, name: PLATFORM_BEACON_NAME };
}
