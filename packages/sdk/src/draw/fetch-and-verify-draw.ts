import type { DrawProof } from '../client/api-types.js';
import { DEFAULT_DATA_PLANE_URL } from '../client/raffle-client.js';
import { createHttpClient } from '../http/create-http-client.js';
import { verifyDraw, type DrawVerification, type TrustedBeaconChain } from '../verify-draw.js';
import { QUICKNET } from './beacon-chain.js';
import { commitmentRecordOf, fetchDrawCommitment, type DrawCommitment, type DrawCommitmentRecord } from './commitment-record.js';
import { fetchPlatformBeaconChain } from './platform-beacon.js';
import { locateProof } from './proof-url.js';

export type FetchAndVerifyDrawOptions = {
  /** Where the data plane listens, for a slug (default `http://localhost:3000`). */
  baseUrl?: string;
  /** Only for a keyed `/api/v1/…/draw` URL; the public route takes none and is sent none. */
  apiKey?: string;
  /**
   * The beacon chains whose rounds an `es-hmac-sha256-drand-v1` proof may use (verifyDraw's
   * option): default drand's quicknet alone. A local beacon is trusted only when passed here.
   */
  trustedChains?: readonly TrustedBeaconChain[];
  /**
   * Also trust the chain the proof's platform pins (`GET {origin}/public/v1/beacon`, see
   * fetchPlatformBeaconChain): that platform's operator, unless the chain is quicknet.
   */
  trustPlatformBeacon?: boolean;
  /**
   * What you kept of the raffle's record from before the draw (the `raffle.closed` webhook's
   * `beaconRound`, or an earlier `fetchDrawCommitment`): checked over the record fetched
   * now, which the proof's own platform serves. The fetched record binds the algorithm, the
   * commitment and the round either way.
   */
  commitment?: DrawCommitmentRecord;
  /** The fetch to use (default the global one): for tests, proxies, or a custom agent. */
  fetch?: typeof fetch;
  /** Retries of a failed GET (the SDK's default policy otherwise). */
  maxRetries?: number;
  /** Per attempt, in milliseconds. */
  timeoutMs?: number;
};

export type FetchedDrawVerification = {
  /** The URL the proof came from. */
  url: string;
  /** The proof as served (unchecked JSON until `verification.valid`). */
  proof: DrawProof;
  verification: DrawVerification;
  /** The raffle's public commitment record as fetched with the proof; null when the platform serves none for it (a private raffle). */
  commitment: DrawCommitment | null;
};

const slugOf = (proofUrl: URL) => decodeURIComponent(/\/raffles\/([^/]+)\/draw\/?$/.exec(proofUrl.pathname)?.[1] ?? '');

/**
 * Fetches a drawn raffle's proof and its public commitment record
 * (`GET /public/v1/raffles/{slug}/commitment`), and recomputes the draw, holding the proof against
 * the record: the algorithm bound at publish, the commitment, and the round fixed at the close. `slugOrUrl` is a slug (the keyless
 * `GET {baseUrl}/public/v1/raffles/{slug}/draw`) or a full proof or raffle URL. Throws
 * RaffleApiError when the server refuses (404 RAFFLE_NOT_FOUND, DRAW_NOT_AVAILABLE, …) and
 * RaffleConnectionError when it cannot be reached; an answer that is not a valid proof resolves
 * with `verification.valid === false`.
 */
export async function fetchAndVerifyDraw(slugOrUrl: string, options: FetchAndVerifyDrawOptions = {}): Promise<FetchedDrawVerification> {
  const location = locateProof(slugOrUrl, options.baseUrl ?? DEFAULT_DATA_PLANE_URL);
  if ('error' in location) throw new TypeError(location.error);
  if (location.keyed && !options.apiKey) throw new TypeError(`${location.url} is a keyed route: pass apiKey, or use the slug for the public route`);
  const url = new URL(location.url);
  const http = createHttpClient({
    baseUrl: url.origin,
    authorization: location.keyed ? `Bearer ${options.apiKey}` : '',
    maxRetries: options.maxRetries,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    errorCodeSource: 'body',
  });
  const proof = await http.request<DrawProof>({ method: 'GET', path: `${url.pathname}${url.search}` });
  const commitment = await fetchDrawCommitment(slugOf(url), { baseUrl: url.origin, fetch: options.fetch, maxRetries: options.maxRetries, timeoutMs: options.timeoutMs });
  const record = { ...commitmentRecordOf(commitment ?? {}), ...commitmentRecordOf(options.commitment ?? {}) };
  const trustedChains = options.trustPlatformBeacon
    ? [...(options.trustedChains ?? [QUICKNET]), await fetchPlatformBeaconChain({ baseUrl: url.origin, fetch: options.fetch, maxRetries: options.maxRetries, timeoutMs: options.timeoutMs })]
    : options.trustedChains;
  return { url: location.url, proof, commitment, verification: verifyDraw(proof, { trustedChains, commitment: record }) };
}
