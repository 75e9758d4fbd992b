import { isSocialRequirement, type schema } from '@raffle/db';
import type { SocialProvider } from '@raffle/social';

type RaffleRequirement = schema.RaffleRequirement;

export type { SocialProvider };

/**
 * What one read asks a provider about the token's own user. Two requirements naming the same
 * resource (a `discord_member` and a `discord_role` of one server) share one read.
 */
export type SocialResource =
  | { provider: 'discord'; kind: 'guild_member'; guildId: string }
  | { provider: 'x'; kind: 'follows'; targetUserId: string }
  | { provider: 'x'; kind: 'account' };

/** The resource a social requirement is decided on; its params were checked when the raffle took them. */
export function resourceOf(requirement: RaffleRequirement): SocialResource {
  const p = requirement.params;
  switch (requirement.type) {
    case 'discord_member':
    case 'discord_role':
      return { provider: 'discord', kind: 'guild_member', guildId: String(p.guildId) };
    case 'x_follows':
      return { provider: 'x', kind: 'follows', targetUserId: String(p.userId) };
    case 'x_account_age_days':
      return { provider: 'x', kind: 'account' };
    default:
      throw new Error(`requirement type ${requirement.type} reads no provider`);
  }
}

export const providerOf = (requirement: RaffleRequirement): SocialProvider => resourceOf(requirement).provider;

/** A resource as a key: the same (user, provider, resource) is asked once at a time. */
export function resourceKey(resource: SocialResource): string {
  switch (resource.kind) {
    case 'guild_member':
      return `discord:guild:${resource.guildId}`;
    case 'follows':
      return `x:follows:${resource.targetUserId}`;
    case 'account':
      return 'x:account';
  }
}

/** The providers a raffle's requirements read, each once, sorted. */
export function providersReadBy(raffle: { requirements: readonly RaffleRequirement[] }): SocialProvider[] {
  return [...new Set(raffle.requirements.filter(isSocialRequirement).map(providerOf))].sort();
}
