import type { components } from '../generated/data-plane.js';
import { RaffleApiError } from '../http/raffle-api-error.js';
import { DRAND_DRAW_ALGORITHM } from './beacon-draw.js';
import { publicHttpClient, type PublicRouteOptions } from './public-http-client.js';

/** `GET /public/v1/raffles/{slug}/commitment`: what a raffle said about its draw before drawing. */
export type DrawCommitment = components['schemas']['DrawCommitment'];

/**
 * What a verifier holds a proof against, from outside the proof (issue 34): the raffle's public
 * record (`GET /public/v1/raffles/{slug}/commitment`, or a `PublicRaffle` / `WorkspaceRaffle`, or
 * the `raffle.closed` webhook's `beaconRound`), better a copy kept from before the draw.
 * Every field is optional: only what is given is checked.
 */
export type DrawCommitmentRecord = {
  /** sha256 of the seed, public from publish. */
  drawCommitment?: string | null;
  /** The algorithm bound at publish (`es-hmac-sha256-drand-v1`); absent for raffles published before it was bound. */
  drawAlgorithm?: string | null;
  /** The round fixed and made public at the close. */
  beaconRound?: number | null;
  /** The chain of that round. */
  beaconChainHash?: string | null;
};

/**
 * The algorithm the record binds the draw to: the one named at publish, else the beacon draw when
 * the raffle closed with a round (every close since decision 0022 fixes one), else none (a raffle
 * closed before beacon rounds: its draw takes the seed alone).
 */
export function committedAlgorithm(record: DrawCommitmentRecord): string | undefined {
  if (typeof record.drawAlgorithm === 'string') return record.drawAlgorithm;
  return typeof record.beaconRound === 'number' ? DRAND_DRAW_ALGORITHM : undefined;
}

/** Only the fields given, so a record read from another representation keeps nothing else. */
export function commitmentRecordOf(value: DrawCommitmentRecord): DrawCommitmentRecord {
  const { drawCommitment, drawAlgorithm, beaconRound, beaconChainHash } = value;
  return {
    ...(typeof drawCommitment === 'string' ? { drawCommitment } : {}),
    ...(typeof drawAlgorithm === 'string' ? { drawAlgorithm } : {}),
    ...(typeof beaconRound === 'number' ? { beaconRound } : {}),
    ...(typeof beaconChainHash === 'string' ? { beaconChainHash } : {}),
  };
}

export type FetchDrawCommitmentOptions = PublicRouteOptions;

/**
 * The raffle's public commitment record, or null when the platform serves none for it (a private
 * raffle, or a platform from before the route: both answer 404). Served by the same operator as the
 * proof, so a copy kept from before the draw is the stronger reference.
 */
export async function fetchDrawCommitment(slug: string, options: FetchDrawCommitmentOptions = {}): Promise<DrawCommitment | null> {
  const http = publicHttpClient(options);
  try {
    return await http.request<DrawCommitment>({ method: 'GET', path: `/public/v1/raffles/${encodeURIComponent(slug)}/commitment` });
  } catch (error) {
    if (error instanceof RaffleApiError && error.status === 404) return null;
    throw error;
  }
}
