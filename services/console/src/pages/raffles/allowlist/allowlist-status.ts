import type { RaffleAllowlist as Allowlist } from '@raffle/sdk';

/** One published version of an allowlist. */
export type AllowlistVersion = Allowlist['versions'][number];

/** While a version is being built, the builder runs every scheduler pass (about a second). */
const BUILDING_REFRESH_MS = 2_000;
/** Nothing changes on its own before then but a finalize (another tab, auto-finalize) or the deadline. */
const IDLE_REFRESH_MS = 30_000;
/** After the deadline the build is queued at the next scheduler pass: look again just after it. */
const AFTER_DEADLINE_MS = 1_000;

/**
 * How long until the allowlist is worth fetching again, or false when only a change made on this
 * page can move it (it is published, or it is not an allowlist). The page then refetches by
 * itself, as the draw wait sends the draw when it is due.
 */
export function allowlistRefreshMs(allowlist: Pick<Allowlist, 'status' | 'walletDeadline'> | undefined, now: number): number | false {
  switch (allowlist?.status) {
    case 'building':
      return BUILDING_REFRESH_MS;
    case 'awaiting_wallets': {
      const deadline = allowlist.walletDeadline ? Date.parse(allowlist.walletDeadline) : Number.NaN;
      if (Number.isNaN(deadline)) return IDLE_REFRESH_MS;
      return Math.min(IDLE_REFRESH_MS, Math.max(AFTER_DEADLINE_MS, deadline - now + AFTER_DEADLINE_MS));
    }
    case 'awaiting_finalize':
      return IDLE_REFRESH_MS;
    default:
      return false;
  }
}

/** The status as a short label for the badge. */
export const ALLOWLIST_STATUS_LABELS: Record<Allowlist['status'], string> = {
  not_applicable: 'not an allowlist',
  awaiting_finalize: 'awaiting finalize',
  awaiting_wallets: 'awaiting wallets',
  building: 'building',
  published: 'published',
};
