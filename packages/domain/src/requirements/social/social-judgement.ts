import type { DiscordGuildMember, XAccount } from '@raffle/social';
import type { schema } from '@raffle/db';

type RaffleRequirement = schema.RaffleRequirement;

/** What a provider said about the resource a requirement is decided on (social-resources.ts). */
export type ResourceValue =
  | { kind: 'guild_member'; member: DiscordGuildMember | null }
  | { kind: 'follows'; follows: boolean }
  | { kind: 'account'; account: XAccount };

/**
 * A decided social requirement: `detail` is what the entrant is told, about themself only;
 * `evidence` is kept with the verdict and never shown. Neither names an account id or a token.
 */
export type SocialDecision = { passed: boolean; detail: string; evidence: Record<string, unknown> };

const DAY_MS = 86_400_000;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the entrant is told of a role requirement: how many of the roles asked they hold, never which others they have. */
function roleDetail(passed: boolean, all: boolean, held: number, wanted: number): string {
  const where = 'in the Discord server';
  if (wanted === 1) return passed ? `holds the required role ${where}` : `does not hold the required role ${where}`;
  if (passed) return all ? `holds all ${wanted} required roles ${where}` : `holds one of the required roles ${where}`;
  return all ? `holds ${held} of the ${wanted} required roles ${where}` : `holds none of the ${wanted} required roles ${where}`;
}

/** Decides one social requirement on what its provider answered, at `at`. */
export function judgeSocialRequirement(requirement: RaffleRequirement, value: ResourceValue, at: Date): SocialDecision {
  const p = requirement.params;
  const checkedAt = at.toISOString();
  switch (requirement.type) {
    case 'discord_member': {
      const member = value.kind === 'guild_member' ? value.member : null;
      return member
        ? { passed: true, detail: 'a member of the Discord server', evidence: { provider: 'discord', guildId: p.guildId, member: true, checkedAt } }
        : { passed: false, detail: 'not a member of the Discord server', evidence: { provider: 'discord', guildId: p.guildId, member: false, checkedAt } };
    }
    case 'discord_role': {
      const member = value.kind === 'guild_member' ? value.member : null;
      const wanted = (p.roleIds as string[]) ?? [];
      const evidence = { provider: 'discord', guildId: p.guildId, member: member !== null, checkedAt };
      if (!member) return { passed: false, detail: 'not a member of the Discord server', evidence };
      const held = wanted.filter((id) => member.roles.includes(id)).length;
      const all = p.match === 'all';
      const passed = all ? held === wanted.length : held > 0;
      return { passed, detail: roleDetail(passed, all, held, wanted.length), evidence: { ...evidence, rolesHeld: held, rolesRequired: wanted.length, match: all ? 'all' : 'any' } };
    }
    case 'x_follows': {
      const follows = value.kind === 'follows' && value.follows;
      return {
        passed: follows,
        detail: follows ? 'follows the X account' : 'does not follow the X account',
        evidence: { provider: 'x', targetUserId: p.userId, follows, checkedAt },
      };
    }
    case 'x_account_age_days': {
      const min = Number(p.min);
      const createdAt = value.kind === 'account' ? value.account.createdAt : at;
      const ageDays = Math.max(0, Math.floor((at.getTime() - createdAt.getTime()) / DAY_MS));
      return {
        passed: ageDays >= min,
        detail: `X account is ${plural(ageDays, 'day', 'days')} old, needs ${min}`,
        evidence: { provider: 'x', ageDays, min, checkedAt },
      };
    }
    default:
      throw new Error(`requirement type ${requirement.type} reads no provider`);
  }
}
