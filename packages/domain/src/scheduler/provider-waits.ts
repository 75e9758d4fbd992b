import { ProviderWaitAtDraw } from '../eligibility/social-at-close.js';
import type { SocialProvider } from '../requirements/social/social-resources.js';

/** Retry after a silent provider: doubling from here, reset once it answers (as for an unreachable chain). */
const FIRST_UNAVAILABLE_RETRY_SECONDS = 2;
const LAST_UNAVAILABLE_RETRY_SECONDS = 30;

export type ProviderWaitReason = 'rate_limited' | 'unavailable';

/**
 * What one scheduler is waiting for before it can read a raffle's entrants at a provider, kept
 * across passes, as ChainWaits is for chains: a raffle some of whose entrants' reads a provider
 * asked to wait for (asked again only after that reset: a rate limit is per user token, so it holds
 * back that raffle alone), and a provider that did not answer (asked again after a doubling delay,
 * for every raffle reading it), so an outage costs a few reads a minute however many raffles wait.
 */
export type ProviderDrawWaits = {
  /** The reason the raffle's draw still waits, or null when its entrants may be read now. */
  waiting(raffleId: string, providers: readonly SocialProvider[], nowMs: number): ProviderWaitReason | null;
  /** Records a failed read; returns its reason, or null when the error is not a provider's. */
  failed(raffleId: string, error: unknown, nowMs: number): ProviderWaitReason | null;
  /** The raffle's entrants were read: its providers answer. */
  read(raffleId: string, providers: readonly SocialProvider[]): void;
};

export function createProviderDrawWaits(): ProviderDrawWaits {
  const raffles = new Map<string, number>();
  const providersDown = new Map<SocialProvider, number>();
  let unavailableRetrySeconds = FIRST_UNAVAILABLE_RETRY_SECONDS;
  return {
    waiting(raffleId, providers, nowMs) {
      if (providers.some((p) => (providersDown.get(p) ?? 0) > nowMs)) return 'unavailable';
      return (raffles.get(raffleId) ?? 0) > nowMs ? 'rate_limited' : null;
    },
    failed(raffleId, error, nowMs) {
      if (!(error instanceof ProviderWaitAtDraw)) return null;
      if (error.reason === 'rate_limited') {
        raffles.set(raffleId, nowMs + error.retryAfterSeconds * 1000);
        return 'rate_limited';
      }
      providersDown.set(error.provider, nowMs + unavailableRetrySeconds * 1000);
      unavailableRetrySeconds = Math.min(unavailableRetrySeconds * 2, LAST_UNAVAILABLE_RETRY_SECONDS);
      return 'unavailable';
    },
    read(raffleId, providers) {
      raffles.delete(raffleId);
      for (const p of providers) providersDown.delete(p);
      unavailableRetrySeconds = FIRST_UNAVAILABLE_RETRY_SECONDS;
    },
  };
}
