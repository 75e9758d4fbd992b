import { isSocialRequirement, type schema } from '@raffle/db';
import { providerName } from '../../connections/provider-access.js';
import { providerOf } from './social-resources.js';
import type { SocialReader, SocialVerdict } from './social-reader.js';

type RaffleRequirement = schema.RaffleRequirement;

/** How social requirements are read: the reader (null when this service reads no provider). */
export type SocialCheck = { reader: SocialReader | null };

/**
 * The providers' verdicts on a raffle's social requirements for each user (aligned with
 * `userIds`, each row with the social requirements in the raffle's order). Without a reader every
 * one waits: the entries are pending, as with a chain that is not configured.
 */
export async function readSocialVerdicts(
  check: SocialCheck | undefined,
  requirements: readonly RaffleRequirement[],
  userIds: readonly string[],
): Promise<SocialVerdict[][]> {
  const social = requirements.filter(isSocialRequirement);
  if (social.length === 0) return userIds.map(() => []);
  if (!check?.reader) {
    const unread = social.map((r): SocialVerdict => {
      const provider = providerOf(r);
      return { state: 'waiting', provider, reason: 'unavailable', retryAt: null, detail: `not evaluated yet: ${providerName(provider)} is not read here` };
    });
    return userIds.map(() => unread);
  }
  return check.reader.verdicts(social, userIds);
}

/** Whether any of an entrant's social verdicts still waits for its provider. */
export const waitsForProvider = (verdicts: readonly SocialVerdict[]) => verdicts.some((v) => v.state === 'waiting');
