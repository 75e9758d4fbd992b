import { isRoundSignatureValid, randomnessOf, roundAt, timeOfRound, type BeaconChain } from '@raffle/sdk';
import { BeaconRoundPending, BeaconUnavailable, type RelayFailure } from './errors.js';
import { requestRound, type RelayRound } from './relay-request.js';

/** A round whose signature verified against the pinned chain: safe to draw with. */
export type VerifiedRound = {
  chainHash: string;
  round: number;
  /** hex, compressed G1 */
  signature: string;
  /** hex, sha256(signature) */
  randomness: string;
};

export type BeaconClientOptions = {
  chain: BeaconChain;
  /** Relay base URLs (`https://api.drand.sh`), tried in order; see DRAND_PUBLIC_RELAYS. */
  relays: readonly string[];
  /** Per relay, for the whole request. Default 3000 ms. */
  timeoutMs?: number;
  /**
   * How long after its due time a round that every relay still answers 404 for counts as pending
   * rather than unavailable. drand publishes within a second or two; a round missing much longer
   * means the relays are broken (or serve another chain), which an operator must hear about.
   * Default 60 s.
   */
  publicationGraceSeconds?: number;
  /** Unix time in seconds (fractions allowed); tests move the clock. */
  now?: () => number;
  /** Told of every relay answer that was not used, even when a later relay succeeds: for logs and metrics. */
  onRelayFailure?: (failure: RelayFailure) => void;
};

export type BeaconClient = {
  readonly chain: BeaconChain;
  /** Round `round`, verified; throws BeaconRoundPending or BeaconUnavailable. */
  fetchRound(round: number): Promise<VerifiedRound>;
  /** The newest round a relay has, verified; throws BeaconUnavailable. */
  fetchLatest(): Promise<VerifiedRound>;
};

export function createBeaconClient(options: BeaconClientOptions): BeaconClient {
  const { chain, relays } = options;
  const timeoutMs = options.timeoutMs ?? 3000;
  const grace = options.publicationGraceSeconds ?? 60;
  const now = options.now ?? (() => Date.now() / 1000);
  const roundUrl = (relay: string, round: number | 'latest') => `${relay.replace(/\/+$/, '')}/${chain.chainHash}/public/${round}`;

  /** The relay's claim as a verified round, or why it is refused. */
  function verify(claim: RelayRound, expectedRound: number | 'latest'): VerifiedRound | string {
    if (expectedRound !== 'latest' && claim.round !== expectedRound) return `answered round ${claim.round} for round ${expectedRound}`;
    if (!isRoundSignatureValid(chain, claim.round, claim.signature)) return `signature does not verify against chain ${chain.chainHash}`;
    const randomness = randomnessOf(claim.signature);
    if (claim.randomness !== undefined && claim.randomness !== randomness) return 'randomness is not sha256(signature)';
    return { chainHash: chain.chainHash, round: claim.round, signature: claim.signature, randomness };
  }

  async function fetchFromRelays(round: number | 'latest'): Promise<{ verified?: VerifiedRound; failures: RelayFailure[]; notPublished: number }> {
    const failures: RelayFailure[] = [];
    const fail = (failure: RelayFailure) => {
      failures.push(failure);
      options.onRelayFailure?.(failure);
    };
    let notPublished = 0;
    for (const relay of relays) {
      const answer = await requestRound(roundUrl(relay, round), timeoutMs);
      if (answer.kind === 'not-published') {
        notPublished += 1;
        fail({ relay, reason: 'round not published' });
        continue;
      }
      if (answer.kind === 'failed') {
        fail({ relay, reason: answer.reason });
        continue;
      }
      const verified = verify(answer.claim, round);
      if (typeof verified === 'string') fail({ relay, reason: verified });
      else return { verified, failures, notPublished };
    }
    return { failures, notPublished };
  }

  return {
    chain,
    async fetchRound(round) {
      const dueAt = timeOfRound(chain, round);
      const current = now();
      // A round in the future by our clock cannot be had from any relay: say when to ask again
      // without asking them.
      if (round > roundAt(chain, current)) throw new BeaconRoundPending(round, Math.max(1, Math.ceil(dueAt - current)));
      const { verified, failures, notPublished } = await fetchFromRelays(round);
      if (verified !== undefined) return verified;
      if (notPublished > 0 && now() < dueAt + grace) throw new BeaconRoundPending(round, chain.period);
      throw new BeaconUnavailable(round, failures);
    },
    async fetchLatest() {
      const { verified, failures } = await fetchFromRelays('latest');
      if (verified !== undefined) return verified;
      throw new BeaconUnavailable('latest', failures);
    },
  };
}
