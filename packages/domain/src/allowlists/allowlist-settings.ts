import type { schema } from '@raffle/db';

/** The allocations a raffle runs to let its winners mint: only these get an allowlist. */
export const ALLOWLIST_ALLOCATIONS: readonly string[] = ['allowlist_gtd', 'allowlist_fcfs'];

export const hasAllowlist = (raffle: { allocationType: string }) => ALLOWLIST_ALLOCATIONS.includes(raffle.allocationType);

export type AllowlistSettings = { quantity: number; leavesPublic: boolean; walletDeadline: Date | null };

/**
 * The raffle's allowlist settings, with their defaults for a row an older version wrote without
 * them (migration 0021 fills every existing row; a rolling deploy may still write one).
 */
export function allowlistSettingsOf(settings: Partial<schema.RaffleSettings>): AllowlistSettings {
  return {
    quantity: settings.allowlistQuantity ?? 1,
    leavesPublic: settings.allowlistPublic ?? false,
    walletDeadline: settings.walletDeadline ? new Date(settings.walletDeadline) : null,
  };
}
