import { BeaconRoundPending, BeaconUnavailable } from '@raffle/beacon';

/** Retry after an unreachable beacon: doubling from here, reset once a round arrives. */
const FIRST_UNAVAILABLE_RETRY_SECONDS = 2;
const LAST_UNAVAILABLE_RETRY_SECONDS = 30;

export type BeaconWaitReason = 'pending' | 'unavailable';

/**
 * The beacon rounds one scheduler is waiting for, kept across passes: a round that is not yet
 * published (BeaconRoundPending, which says when to ask again) or that no relay gave
 * (BeaconUnavailable, asked again after a doubling delay) is not asked for again before its
 * retry time, however many raffles wait on it and however often passes run.
 */
export type BeaconWaits = {
  /** The reason a round is still waited for, or null when it may be asked for now. */
  waiting(round: number, nowMs: number): BeaconWaitReason | null;
  /** Records a failed fetch; returns its reason, or null when the error is not the beacon's. */
  failed(round: number, error: unknown, nowMs: number): BeaconWaitReason | null;
  /** The round arrived. */
  arrived(round: number): void;
};

export function createBeaconWaits(): BeaconWaits {
  const rounds = new Map<number, { reason: BeaconWaitReason; retryAtMs: number }>();
  let unavailableRetrySeconds = FIRST_UNAVAILABLE_RETRY_SECONDS;
  return {
    waiting(round, nowMs) {
      const wait = rounds.get(round);
      return wait && wait.retryAtMs > nowMs ? wait.reason : null;
    },
    failed(round, error, nowMs) {
      if (error instanceof BeaconRoundPending) {
        rounds.set(round, { reason: 'pending', retryAtMs: nowMs + error.retryAfterSeconds * 1000 });
        return 'pending';
      }
      if (error instanceof BeaconUnavailable) {
        rounds.set(round, { reason: 'unavailable', retryAtMs: nowMs + unavailableRetrySeconds * 1000 });
        unavailableRetrySeconds = Math.min(unavailableRetrySeconds * 2, LAST_UNAVAILABLE_RETRY_SECONDS);
        return 'unavailable';
      }
      return null;
    },
    arrived(round) {
      rounds.delete(round);
      unavailableRetrySeconds = FIRST_UNAVAILABLE_RETRY_SECONDS;
    },
  };
}
