import { createHash } from 'node:crypto';
import type { CompleteConnectionBody, Connection, ConnectionStart } from '@raffle/contracts';
import { consumeOAuthLinkState, deleteExpiredOAuthLinkStates, findOAuthLinkState, insertOAuthLinkState, releaseOAuthLinkState, replaceUserConnection, type Db } from '@raffle/db';
import { generateCodeVerifier, generateState, type OAuthTokens, type SocialProvider } from '@raffle/social';
import { systemClock, type Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import type { LinkedAccount, LinkedAccountReader } from './linked-account.js';
import { toConnection } from './connection-view.js';
import { oauthClientFor, ProviderUnavailable, providerName, type ConnectionOAuth, type ProviderRevocation } from './provider-access.js';
import { expiryOf, revokeUnlessShared, sealedTokensOf } from './stored-tokens.js';
import type { ConnectionTokenSealing } from './token-sealing.js';

/** What linking needs: the sealing, the deployment's OAuth clients, and the reader of the account a token belongs to. */
export type ConnectionLinking = {
  sealing: ConnectionTokenSealing;
  oauth: ConnectionOAuth;
  accounts: LinkedAccountReader;
  clock?: Clock;
};

type Flow = { userId: string; provider: SocialProvider };

/** How long a started flow may be completed: the consent page, a sign-in at the provider, the way back. */
export const LINK_STATE_TTL_MS = 10 * 60 * 1000;
/** States expired this long are deleted when the user starts another (an older one can only be refused). */
const EXPIRED_STATE_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How long to wait before trying a provider again that did not answer. */
const PROVIDER_RETRY_SECONDS = 10;

/** States are stored as their SHA-256: a leaked table cannot complete anyone's flow. */
const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/**
 * Starts linking: a random state (single-use, 10 minutes, bound to the user and the provider) and
 * a PKCE verifier sealed beside it, and the consent URL the browser is sent to.
 */
export async function startConnection(db: Db, args: Flow & Pick<ConnectionLinking, 'sealing' | 'oauth' | 'clock'>): Promise<ConnectionStart> {
  const client = oauthClientFor(args.oauth, args.provider);
  const now = (args.clock ?? systemClock).now();
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const expiresAt = new Date(now.getTime() + LINK_STATE_TTL_MS);
  await db.transaction(async (tx) => {
    await deleteExpiredOAuthLinkStates(tx, { userId: args.userId, before: new Date(now.getTime() - EXPIRED_STATE_RETENTION_MS) });
    await insertOAuthLinkState(tx, {
      stateHash: hashState(state),
      userId: args.userId,
      provider: args.provider,
      codeVerifier: args.sealing.seal(codeVerifier, { userId: args.userId, provider: args.provider, field: 'code_verifier' }),
      createdAt: now,
      expiresAt,
    });
  });
  return { authorizationUrl: client.authorizationUrl({ state, codeVerifier }).toString(), expiresAt: expiresAt.toISOString() };
}

/** A completed link, and what became of the grant it replaced (null when it replaced none, or one of the same account). */
export type CompletedConnection = { connection: Connection; replacedGrant: ProviderRevocation | null };

/**
 * Completes linking with what the provider handed the browser. Checked in this order: the state
 * was issued to this user for this provider (400 OAUTH_STATE_INVALID), is unused (409
 * OAUTH_STATE_USED) and unexpired (409 OAUTH_STATE_EXPIRED) — it is used up from here on —; the
 * provider sent a code, not an error (403 OAUTH_ACCESS_DENIED, 400 OAUTH_CODE_REJECTED); the
 * provider exchanges the code with the verifier (400 OAUTH_CODE_REJECTED); the new token reads the
 * account. A provider that cannot be asked is 503 PROVIDER_UNAVAILABLE; when that happens before
 * the code is exchanged the state is given back, so the same callback may be sent again.
 *
 * A link replaces the user's previous one of the provider; the previous grant is revoked at the
 * provider when it was another account's (and no other user links that account). Not when it was
 * the same account's: the provider keeps one authorization per account and application (Discord
 * revokes all of its tokens together), so revoking the old tokens could end the new ones.
 */
export async function completeConnection(db: Db, args: Flow & ConnectionLinking & { body: CompleteConnectionBody }): Promise<CompletedConnection> {
  const client = oauthClientFor(args.oauth, args.provider);
  const clock = args.clock ?? systemClock;
  const { body } = args;
  if ((body.code === undefined) === (body.error === undefined)) throw new DomainError('VALIDATION_FAILED', 'send either `code` or `error`, as the provider gave them');

  const usedAt = clock.now();
  const stateHash = hashState(body.state);
  const consumed = await consumeOAuthLinkState(db, { stateHash, userId: args.userId, provider: args.provider, now: usedAt });
  if (!consumed) throw await stateRefusal(db, stateHash, args);
  if (body.code === undefined) throw providerRefusal(args.provider, body);

  const verifier = openVerifier(args, consumed.codeVerifier);
  const exchanged = await client.exchangeCode(body.code, verifier);
  if (!exchanged.ok) {
    if (exchanged.failure.kind === 'unavailable') {
      await releaseOAuthLinkState(db, { stateHash, usedAt });
      throw new ProviderUnavailable(args.provider, `did not answer the code exchange (${exchanged.failure.reason}); nothing was linked`, PROVIDER_RETRY_SECONDS);
    }
    throw new DomainError('OAUTH_CODE_REJECTED', `${providerName(args.provider)} refused the code (${exchanged.failure.error}); start linking again`);
  }
  const tokens = exchanged.tokens;
  const accessTokenExpiresAt = expiryOf(tokens, clock.now());
  const account = await readAccount(args, tokens);

  const { row, previous } = await db.transaction((tx) =>
    replaceUserConnection(tx, {
      userId: args.userId,
      provider: args.provider,
      ...account,
      ...sealedTokensOf(args, tokens, args.sealing),
      accessTokenExpiresAt,
      scopes: tokens.scopes,
      linkedAt: clock.now(),
    }),
  );
  const replacedGrant = previous && previous.accountId !== account.accountId ? await revokeUnlessShared(db, client, args, previous) : null;
  return { connection: toConnection(row), replacedGrant };
}

/**
 * The account the new token belongs to, or the link is refused. The new tokens are then dropped,
 * not revoked: at Discord a revocation ends the account's whole authorization of the application,
 * which a link of the same account (this user's, or another's) may share.
 */
async function readAccount(args: Flow & ConnectionLinking, tokens: OAuthTokens): Promise<LinkedAccount> {
  const account = await args.accounts(args.provider, tokens.accessToken);
  if (account.status === 'ok') return account.value;
  if (account.status === 'token_rejected') {
    throw new DomainError('OAUTH_CODE_REJECTED', `${providerName(args.provider)} refused the new token for reading your account (${account.reason}); link again and grant every permission asked`);
  }
  const wait = account.status === 'rate_limited' ? Math.max(1, Math.ceil(account.retryAfterMs / 1000)) : PROVIDER_RETRY_SECONDS;
  const what = account.status === 'rate_limited' ? 'asked to wait before reading your account' : `did not answer when reading your account (${account.reason})`;
  throw new ProviderUnavailable(args.provider, `${what}; nothing was linked, start linking again`, wait);
}

/** The flow's PKCE verifier; a flow sealed under another CONNECTION_TOKEN_KEY cannot be completed. */
function openVerifier(flow: Flow & { sealing: ConnectionTokenSealing }, sealed: string): string {
  try {
    return flow.sealing.open(sealed, { userId: flow.userId, provider: flow.provider, field: 'code_verifier' });
  } catch {
    throw new DomainError('OAUTH_STATE_INVALID', 'this sign-in can no longer be completed here (it was started before a key change); start linking again');
  }
}

/** Why the state was not consumed: not this user's flow of this provider, used, or expired. */
async function stateRefusal(db: Db, stateHash: string, flow: Flow): Promise<DomainError> {
  const row = await findOAuthLinkState(db, stateHash);
  if (!row || row.userId !== flow.userId) {
    return new DomainError('OAUTH_STATE_INVALID', `this ${providerName(flow.provider)} sign-in was not started by you here; start linking again`);
  }
  if (row.provider !== flow.provider) {
    return new DomainError('OAUTH_STATE_INVALID', `this sign-in was started for ${providerName(row.provider as SocialProvider)}, not ${providerName(flow.provider)}; start linking again`);
  }
  if (row.usedAt !== null) return new DomainError('OAUTH_STATE_USED', 'this sign-in was already completed (a callback completes once); start linking again');
  return new DomainError('OAUTH_STATE_EXPIRED', `this sign-in expired at ${row.expiresAt.toISOString()} (a flow lasts 10 minutes); start linking again`);
}

/** The provider sent the browser back with an error instead of a code. */
function providerRefusal(provider: SocialProvider, body: CompleteConnectionBody): DomainError {
  const said = body.errorDescription ? `: ${body.errorDescription}` : '';
  if (body.error === 'access_denied') return new DomainError('OAUTH_ACCESS_DENIED', `you declined at ${providerName(provider)}${said}; nothing was linked`);
  return new DomainError('OAUTH_CODE_REJECTED', `${providerName(provider)} answered ${body.error}${said}; nothing was linked`);
}
