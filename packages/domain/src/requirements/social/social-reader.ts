import type { schema } from '@raffle/db';
import type { DiscordClient, ProviderOutcome, XClient } from '@raffle/social';
import { systemClock, type Clock } from '../../clock.js';
import { OverBudget, withinBudget } from '../within-budget.js';
import type { AccessTokenResult } from '../../connections/connection-tokens.js';
import { waitKey, type ConnectionTokenSource, type ProviderWaitStore } from './connection-access.js';
import { InFlight } from './in-flight.js';
import { judgeSocialRequirement, type ResourceValue, type SocialDecision } from './social-judgement.js';
import { providerName } from '../../connections/provider-access.js';
import { resourceKey, resourceOf, type SocialProvider, type SocialResource } from './social-resources.js';

type RaffleRequirement = schema.RaffleRequirement;

/**
 * One social requirement's outcome for one entrant: decided (passed or not, with what the entrant
 * is told), or waiting for its provider, which was down, slow, or asked to wait until `retryAt`:
 * the entry stays pending and is settled later, the draw waits.
 */
export type SocialVerdict =
  | ({ state: 'decided' } & SocialDecision)
  | { state: 'waiting'; provider: SocialProvider; reason: 'rate_limited' | 'unavailable'; retryAt: Date | null; detail: string };

export type SocialReader = {
  /**
   * The verdicts on `requirements` (all social) for each user, aligned with `userIds`, read with
   * each user's own linked account. Never throws for a provider's behaviour.
   */
  verdicts(requirements: readonly RaffleRequirement[], userIds: readonly string[]): Promise<SocialVerdict[][]>;
};

export type SocialReaderOptions = {
  tokens: ConnectionTokenSource;
  /** Null: the provider is not configured here; its requirements wait (entries pending) until it is. */
  discord: DiscordClient | null;
  x: XClient | null;
  waits: ProviderWaitStore;
  /** Bound on each read (a token refresh, a provider read); over it, the provider is taken as silent. Default 3 s. */
  timeoutMs?: number;
  /** How many entrants are read at once in a batch (settling, a draw). Default 16. */
  concurrency?: number;
  clock?: Clock;
};

type Read = ProviderOutcome<ResourceValue>;

const waiting = (provider: SocialProvider, reason: 'rate_limited' | 'unavailable', retryAt: Date | null): SocialVerdict => ({
  state: 'waiting',
  provider,
  reason,
  retryAt,
  detail:
    reason === 'rate_limited' && retryAt
      ? `not evaluated yet: ${providerName(provider)} asked to wait until ${retryAt.toISOString()}`
      : `not evaluated yet: ${providerName(provider)} did not answer`,
});

const failed = (detail: string, provider: SocialProvider): SocialVerdict => ({ state: 'decided', passed: false, detail, evidence: { provider, linked: false } });

/** What the entrant is told when their link cannot be used: what to do about it. */
const linkDetail = (provider: SocialProvider, status: 'not_linked' | 'revoked' | 'forbidden') => {
  const name = providerName(provider);
  if (status === 'not_linked') return `no ${name} account linked: link your ${name} account`;
  if (status === 'revoked') return `your ${name} link expired; link it again`;
  return `your ${name} link lacks a permission this check needs; link it again`;
};

/**
 * Reads social requirements with each entrant's own token (decision 0045). The same (user,
 * provider, resource) is asked once at a time however many entries, requirements or passes ask
 * it (`InFlight`), and a token is made usable once at a time per user and provider. A provider's
 * "wait until" (a 429, or a bucket with nothing left) is recorded in `waits` and no read is sent
 * for that user and provider before it, from any replica.
 */
export function createSocialReader(options: SocialReaderOptions): SocialReader {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 3000;
  const concurrency = options.concurrency ?? 16;
  const tokens = new InFlight<AccessTokenResult>();
  const reads = new InFlight<Read>();

  const bounded = async <T>(work: Promise<T>, silence: T): Promise<T> => {
    try {
      return await withinBudget(work, timeoutMs);
    } catch (error) {
      if (error instanceof OverBudget) {
        work.catch(() => undefined); // the abandoned work's own failure is already answered
        return silence;
      }
      throw error;
    }
  };

  const tokenOf = (userId: string, provider: SocialProvider) =>
    tokens.run(waitKey(userId, provider), () =>
      bounded(options.tokens.accessTokenFor(userId, provider), { status: 'unavailable', reason: 'the token refresh did not answer in time' }),
    );

  async function ask(token: string, resource: SocialResource): Promise<Read> {
    const slow: Read = { status: 'unavailable', reason: 'did not answer in time' };
    switch (resource.kind) {
      case 'guild_member': {
        const outcome = await bounded(options.discord!.guildMember(token, resource.guildId), slow as ProviderOutcome<never>);
        return outcome.status === 'ok' ? { status: 'ok', value: { kind: 'guild_member', member: outcome.value } } : outcome;
      }
      case 'follows': {
        const outcome = await bounded(options.x!.follows(token, resource.targetUserId), slow as ProviderOutcome<never>);
        return outcome.status === 'ok' ? { status: 'ok', value: { kind: 'follows', follows: outcome.value } } : outcome;
      }
      case 'account': {
        const outcome = await bounded(options.x!.me(token), slow as ProviderOutcome<never>);
        return outcome.status === 'ok' ? { status: 'ok', value: { kind: 'account', account: outcome.value } } : outcome;
      }
    }
  }

  /** One read of one user's resource, shared by whoever asks it meanwhile; a "wait until" is recorded for every replica. */
  const readResource = (userId: string, token: string, resource: SocialResource) =>
    reads.run(`${userId}|${resourceKey(resource)}`, async () => {
      const outcome = await ask(token, resource);
      if (outcome.status === 'rate_limited') await options.waits.record(userId, resource.provider, outcome.resetAt);
      // A 401 before the token expired: the user removed the app at the provider; the link says so from now on.
      if (outcome.status === 'token_rejected' && outcome.httpStatus === 401) await options.tokens.reportRejected(userId, resource.provider, token, outcome.reason);
      return outcome;
    });

  async function verdictOf(userId: string, requirement: RaffleRequirement, waits: Map<string, Date>): Promise<SocialVerdict> {
    const resource = resourceOf(requirement);
    const provider = resource.provider;
    if (!(provider === 'discord' ? options.discord : options.x)) return waiting(provider, 'unavailable', null);
    const resetAt = waits.get(waitKey(userId, provider));
    if (resetAt && resetAt.getTime() > clock.now().getTime()) return waiting(provider, 'rate_limited', resetAt);
    const link = await tokenOf(userId, provider);
    if (link.status === 'not_linked' || link.status === 'revoked') return failed(linkDetail(provider, link.status), provider);
    if (link.status === 'unavailable') return waiting(provider, 'unavailable', null);
    const outcome = await readResource(userId, link.token, resource);
    switch (outcome.status) {
      case 'ok':
        return { state: 'decided', ...judgeSocialRequirement(requirement, outcome.value, clock.now()) };
      case 'rate_limited':
        return waiting(provider, 'rate_limited', outcome.resetAt);
      case 'unavailable':
        return waiting(provider, 'unavailable', null);
      case 'token_rejected':
        return failed(linkDetail(provider, outcome.httpStatus === 403 ? 'forbidden' : 'revoked'), provider);
    }
  }

  return {
    async verdicts(requirements, userIds) {
      if (requirements.length === 0 || userIds.length === 0) return userIds.map(() => []);
      const providers = [...new Set(requirements.map((r) => resourceOf(r).provider))];
      const waits = await options.waits.waitsOf(userIds, providers, clock.now());
      const results: SocialVerdict[][] = new Array(userIds.length);
      let next = 0;
      // A few entrants at a time: each is a handful of reads with their own token, and a batch can hold thousands.
      const worker = async () => {
        while (next < userIds.length) {
          const i = next++;
          results[i] = await Promise.all(requirements.map((r) => verdictOf(userIds[i]!, r, waits)));
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, userIds.length) }, worker));
      return results;
    },
  };
}
