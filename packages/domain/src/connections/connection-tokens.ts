import { setTimeout as sleep } from 'node:timers/promises';
import {
  claimConnectionRefresh,
  findUserConnection,
  markUserConnectionRevoked,
  releaseConnectionRefresh,
  saveRefreshedTokens,
  type Db,
  type UserConnectionRow,
} from '@raffle/db';
import type { SocialProvider } from '@raffle/social';
import { systemClock, type Clock } from '../clock.js';
import { providerName, type ConnectionOAuth } from './provider-access.js';
import { expiryOf, openedTokensOf, sealedTokensOf } from './stored-tokens.js';
import type { ConnectionTokenSealing } from './token-sealing.js';

/** What a requirement check gets for a user's link: a usable token, or why there is none. */
export type AccessTokenResult =
  | { status: 'ok'; token: string; accountId: string }
  | { status: 'not_linked' }
  /** The link no longer works (the provider refused to renew it); the user links again. */
  | { status: 'revoked'; reason: string }
  /** The provider could not be asked to renew it now: try again later (the entry stays pending). */
  | { status: 'unavailable'; reason: string };

export type ConnectionTokens = {
  /** A usable access token of the user's link, renewed first when it expires within a minute. */
  accessTokenFor(userId: string, provider: SocialProvider): Promise<AccessTokenResult>;
  /**
   * The provider refused `token` (401 on a read before it expired: the user removed the app there):
   * the link is marked revoked, unless it holds another token by now (linked again, renewed).
   */
  reportRejected(userId: string, provider: SocialProvider, token: string, reason: string): Promise<void>;
};

export type ConnectionTokensOptions = {
  db: Db;
  sealing: ConnectionTokenSealing;
  oauth: ConnectionOAuth;
  clock?: Clock;
  /** A token expiring sooner than this is renewed first; default one minute. */
  refreshMarginMs?: number;
  /** How long one caller's renewal may take before another may try; longer than a provider's timeout. Default 15 s. */
  refreshClaimMs?: number;
  /** How often a caller waiting for another's renewal looks again; default 100 ms. */
  waitStepMs?: number;
};

type Link = { userId: string; provider: SocialProvider };

/**
 * The tokens of users' links, for the requirement checks (issue 36, Part C). An expired access
 * token is renewed with the refresh token once however many callers want it at the same time: in
 * one process they share the one renewal, across instances a claim on the row (one UPDATE) lets
 * one caller renew while the others wait for its result. No database transaction is held while
 * the provider is asked. The rotated tokens are saved; a refresh the provider refuses marks the
 * link revoked.
 */
export function createConnectionTokens(options: ConnectionTokensOptions): ConnectionTokens {
  const { db, sealing, oauth } = options;
  const clock = options.clock ?? systemClock;
  const marginMs = options.refreshMarginMs ?? 60_000;
  const claimMs = options.refreshClaimMs ?? 15_000;
  const waitStepMs = options.waitStepMs ?? 100;
  const renewing = new Map<string, Promise<AccessTokenResult>>();

  const revoke = async (row: UserConnectionRow, reason: string): Promise<AccessTokenResult> => {
    await markUserConnectionRevoked(db, { userId: row.userId, provider: row.provider, accessToken: row.accessToken, reason, now: clock.now() });
    return { status: 'revoked', reason };
  };

  /** The answer a row gives without renewing, or null when its token must be renewed first. */
  const answerOf = async (link: Link, row: UserConnectionRow | null): Promise<AccessTokenResult | null> => {
    if (!row) return { status: 'not_linked' };
    if (row.status === 'revoked') return { status: 'revoked', reason: row.revokedReason ?? `the ${providerName(link.provider)} link was revoked` };
    if (row.accessTokenExpiresAt.getTime() - marginMs <= clock.now().getTime()) return null;
    const tokens = openedTokensOf(link, row, sealing);
    if (!tokens) return revoke(row, 'the stored tokens do not open with this CONNECTION_TOKEN_KEY; link the account again');
    return { status: 'ok', token: tokens.accessToken, accountId: row.accountId };
  };

  /** Renews the claimed row's tokens at the provider; the claim ends with the saved tokens, a revocation, or a release. */
  const renewClaimed = async (link: Link, row: UserConnectionRow, claimUntil: Date): Promise<AccessTokenResult> => {
    const client = oauth[link.provider];
    if (!client) {
      await releaseConnectionRefresh(db, { ...link, claimUntil });
      return { status: 'unavailable', reason: `no ${providerName(link.provider)} client is configured here` };
    }
    const stored = openedTokensOf(link, row, sealing);
    if (!stored) return revoke(row, 'the stored tokens do not open with this CONNECTION_TOKEN_KEY; link the account again');
    if (stored.refreshToken === null) return revoke(row, `the ${providerName(link.provider)} token expired and the provider gave no refresh token; link the account again`);
    const renewed = await client.refresh(stored.refreshToken);
    if (!renewed.ok) {
      if (renewed.failure.kind === 'refused') return revoke(row, `${providerName(link.provider)} refused to renew the link (${renewed.failure.error}); link the account again`);
      await releaseConnectionRefresh(db, { ...link, claimUntil });
      return { status: 'unavailable', reason: `${providerName(link.provider)} could not renew the link now: ${renewed.failure.reason}` };
    }
    const { tokens } = renewed;
    const accessTokenExpiresAt = expiryOf(tokens, clock.now());
    // A provider that does not rotate refresh tokens keeps the one it gave.
    const sealed = sealedTokensOf(link, { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken ?? stored.refreshToken }, sealing);
    const saved = await saveRefreshedTokens(db, {
      ...link,
      replacedAccessToken: row.accessToken,
      ...sealed,
      accessTokenExpiresAt,
      scopes: tokens.scopes.length > 0 ? tokens.scopes : row.scopes,
      now: clock.now(),
    });
    // The link was replaced or removed while renewing: the answer is whatever it holds now.
    if (!saved) return (await answerOf(link, await findUserConnection(db, link))) ?? { status: 'unavailable', reason: 'the link changed while it was renewed; try again' };
    return { status: 'ok', token: tokens.accessToken, accountId: row.accountId };
  };

  /** Claims the renewal, or waits for whoever holds it, until the row gives an answer. */
  const renew = async (link: Link): Promise<AccessTokenResult> => {
    const deadline = Date.now() + claimMs + waitStepMs;
    for (;;) {
      const now = clock.now();
      const claimUntil = new Date(now.getTime() + claimMs);
      const claimed = await claimConnectionRefresh(db, { ...link, now, expiringBy: new Date(now.getTime() + marginMs), claimUntil });
      if (claimed) return renewClaimed(link, claimed, claimUntil);
      const answer = await answerOf(link, await findUserConnection(db, link));
      if (answer) return answer;
      if (Date.now() > deadline) return { status: 'unavailable', reason: `another renewal of the ${providerName(link.provider)} link did not finish in time` };
      await sleep(waitStepMs);
    }
  };

  return {
    async accessTokenFor(userId, provider) {
      const link = { userId, provider };
      const key = `${provider}:${userId}`;
      const answer = renewing.get(key) ?? (await answerOf(link, await findUserConnection(db, link)));
      if (answer) return answer;
      // Checked again after the read: another call may have started the renewal meanwhile.
      const running = renewing.get(key);
      if (running) return running;
      const renewal = renew(link).finally(() => renewing.delete(key));
      renewing.set(key, renewal);
      return renewal;
    },

    async reportRejected(userId, provider, token, reason) {
      const link = { userId, provider };
      const row = await findUserConnection(db, link);
      if (!row || row.status !== 'active' || openedTokensOf(link, row, sealing)?.accessToken !== token) return;
      await revoke(row, `${providerName(provider)} refused the link's token (${reason}); link the account again`);
    },
  };
}
