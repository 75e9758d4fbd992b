import { ChainUnavailable } from '@raffle/chain';
import { CloseBlockPending } from '../eligibility/close-blocks.js';

/** Retry after an unreachable chain: doubling from here, reset once it answers (as for the beacon). */
const FIRST_UNAVAILABLE_RETRY_SECONDS = 2;
const LAST_UNAVAILABLE_RETRY_SECONDS = 30;

export type ChainWaitReason = 'pending' | 'unavailable';

/**
 * What one scheduler is waiting for before it can pin a raffle's close blocks, kept across passes:
 * a raffle whose close block is not produced yet (asked again after CloseBlockPending's delay) and
 * a chain that did not answer (asked again after a doubling delay, for every raffle reading it), so
 * an RPC outage costs a few requests a minute however many raffles wait.
 */
export type ChainWaits = {
  /** The reason the raffle's draw still waits, or null when its blocks may be asked for now. */
  waiting(raffleId: string, chains: readonly string[], nowMs: number): ChainWaitReason | null;
  /** Records a failed pin; returns its reason, or null when the error is not the chain's. */
  failed(raffleId: string, error: unknown, nowMs: number): ChainWaitReason | null;
  /** The raffle's blocks were pinned: its chains answer. */
  pinned(raffleId: string, chains: readonly string[]): void;
};

export function createChainWaits(): ChainWaits {
  const raffles = new Map<string, number>();
  const chainsDown = new Map<string, number>();
  let unavailableRetrySeconds = FIRST_UNAVAILABLE_RETRY_SECONDS;
  return {
    waiting(raffleId, chains, nowMs) {
      if (chains.some((c) => (chainsDown.get(c) ?? 0) > nowMs)) return 'unavailable';
      return (raffles.get(raffleId) ?? 0) > nowMs ? 'pending' : null;
    },
    failed(raffleId, error, nowMs) {
      if (error instanceof CloseBlockPending) {
        raffles.set(raffleId, nowMs + error.retryAfterSeconds * 1000);
        return 'pending';
      }
      if (error instanceof ChainUnavailable) {
        chainsDown.set(error.chain, nowMs + unavailableRetrySeconds * 1000);
        unavailableRetrySeconds = Math.min(unavailableRetrySeconds * 2, LAST_UNAVAILABLE_RETRY_SECONDS);
        return 'unavailable';
      }
      return null;
    },
    pinned(raffleId, chains) {
      raffles.delete(raffleId);
      for (const c of chains) chainsDown.delete(c);
      unavailableRetrySeconds = FIRST_UNAVAILABLE_RETRY_SECONDS;
    },
  };
}
