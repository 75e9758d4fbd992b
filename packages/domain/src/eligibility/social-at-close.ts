import { pageEntryOutcomes, type DbOrTx } from '@raffle/db';
import type { RaffleRecord } from '../raffles/raffle-locks.js';
import type { SocialVerdict } from '../requirements/social/social-reader.js';
import { providerName } from '../connections/provider-access.js';
import { providersReadBy, type SocialProvider } from '../requirements/social/social-resources.js';
import { readSocialVerdicts, type SocialCheck } from '../requirements/social/social-verdicts.js';

/** Entrants whose linked accounts a draw reads per batch (their entries paged as the re-check pages them). */
const SOCIAL_BATCH_SIZE = 2000;

/** What the providers said of every entrant a draw re-checks, read before the draw's lock: their social verdicts by user. */
export type SocialAtClose = { verdicts: ReadonlyMap<string, readonly SocialVerdict[]> };

/** Seconds until a provider that did not answer is asked again for a draw (as CHAIN_UNAVAILABLE's Retry-After). */
export const PROVIDER_RETRY_SECONDS = 10;

/**
 * A provider the raffle's requirements read did not answer for some entrant, or asked to wait
 * (until `retryAt`): nothing was done, the raffle stays closed, and the draw is asked again after
 * `retryAfterSeconds` (never before a provider's reset).
 */
export class ProviderWaitAtDraw extends Error {
  readonly retryAfterSeconds: number;
  constructor(
    readonly provider: SocialProvider,
    readonly reason: 'rate_limited' | 'unavailable',
    readonly retryAt: Date | null,
    now: Date,
  ) {
    super(
      reason === 'rate_limited' && retryAt
        ? `${providerName(provider)} asked to wait until ${retryAt.toISOString()} before an entrant's requirements can be read again`
        : `${providerName(provider)}, which the raffle's requirements read, did not answer for every entrant`,
    );
    this.name = 'ProviderWaitAtDraw';
    this.retryAfterSeconds = retryAt ? Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)) : PROVIDER_RETRY_SECONDS;
  }
}

/** The verdict that holds the draw back longest: a rate limit's latest reset, else the first silence. */
function longestWait(rows: readonly (readonly SocialVerdict[])[]): Extract<SocialVerdict, { state: 'waiting' }> | null {
  let longest: Extract<SocialVerdict, { state: 'waiting' }> | null = null;
  for (const verdict of rows.flat()) {
    if (verdict.state !== 'waiting') continue;
    if (!longest || (verdict.retryAt?.getTime() ?? 0) > (longest.retryAt?.getTime() ?? 0)) longest = verdict;
  }
  return longest;
}

/**
 * Reads every `valid` and `pending` entrant's social requirements as the draw will judge them,
 * with each entrant's own linked account, before the draw locks the raffle (as the close blocks
 * are pinned): no lock is held while providers are asked, and the draw under the lock only reads
 * this. An entrant who left the server, lost the role, unfollowed, or whose link was revoked or
 * removed fails there; a provider silent or asking to wait for anyone throws ProviderWaitAtDraw,
 * and the raffle waits. Null for a raffle that reads no provider.
 */
export async function readSocialAtClose(db: DbOrTx, raffle: RaffleRecord, check: SocialCheck | undefined, now: Date): Promise<SocialAtClose | null> {
  if (providersReadBy(raffle).length === 0) return null;
  const verdicts = new Map<string, SocialVerdict[]>();
  for (let afterId: string | null = null; ; ) {
    const rows = await pageEntryOutcomes(db, { raffleId: raffle.id, workspaceId: raffle.workspaceId, requirements: [], at: now, afterId, limit: SOCIAL_BATCH_SIZE });
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1]!.entryId;
    const userIds = rows.map((r) => r.userId);
    const batch = await readSocialVerdicts(check, raffle.requirements, userIds);
    const wait = longestWait(batch);
    if (wait) throw new ProviderWaitAtDraw(wait.provider, wait.reason, wait.retryAt, now);
    userIds.forEach((userId, i) => verdicts.set(userId, batch[i]!));
    if (rows.length < SOCIAL_BATCH_SIZE) break;
  }
  return { verdicts };
}
