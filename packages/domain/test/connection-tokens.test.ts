import { findUserConnection, schema } from '@raffle/db';
import { createDiscordClient, createDiscordOAuth, createXClient, createXOAuth, type OAuthProvider, type SocialProvider } from '@raffle/social';
import { consentThrough, DEMO_ACCOUNTS, startLocalDiscord, startLocalX, type DemoAccountName, type LocalDiscord, type LocalX, type StandInAnswer } from '@raffle/social/local';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completeConnection,
  connectedAccountsOf,
  createConnectionTokens,
  createConnectionTokenSealing,
  linkedAccountReader,
  startConnection,
  type ConnectionLinking,
  type Clock,
} from '../src/index.js';
import { useWorld } from './support/world.js';

/**
 * The linked accounts' tokens as the requirement checks will ask for them: renewed once when
 * expired, however many ask at once (in one process or on several instances), revoked when the
 * provider refuses the renewal, and sealed at rest.
 */
const world = useWorld();

/** The stand-ins' clock and the domain's, moved together: tokens expire by moving it. */
let skewMs = 0;
const now = () => Date.now() + skewMs;
const clock: Clock = { now: () => new Date(now()) };

let discord: LocalDiscord;
let x: LocalX;
/** Every answer of the stand-ins' token endpoints (exchanges and renewals), by provider. */
const tokenAnswers: Record<SocialProvider, StandInAnswer<string>[]> = { discord: [], x: [] };
let linking: ConnectionLinking;

const REDIRECT = 'http://127.0.0.1:3003';
const DAY_MS = 86_400_000;
/** Past the providers' access-token lives (Discord 7 days, X 2 hours), so the stored token has expired. */
const PAST_EXPIRY_MS: Record<SocialProvider, number> = { discord: 8 * DAY_MS, x: 3 * 3600_000 };

beforeAll(async () => {
  const record = (provider: SocialProvider) => (answer: StandInAnswer<string>) => {
    if (answer.route === 'token') tokenAnswers[provider].push(answer);
  };
  discord = await startLocalDiscord({ now, onAnswer: record('discord') });
  x = await startLocalX({ now, onAnswer: record('x') });
  const oauth: Record<SocialProvider, OAuthProvider> = {
    discord: createDiscordOAuth({ clientId: 'raffle-local-discord', clientSecret: 'raffle-local-discord-secret', redirectUri: `${REDIRECT}/connections/discord/callback`, endpoints: discord.endpoints }),
    x: createXOAuth({ clientId: 'raffle-local-x', clientSecret: 'raffle-local-x-secret', redirectUri: `${REDIRECT}/connections/x/callback`, endpoints: x.endpoints }),
  };
  linking = {
    sealing: createConnectionTokenSealing('a-test-connection-token-key-of-32-characters'),
    oauth,
    accounts: linkedAccountReader({ discord: createDiscordClient({ apiBaseUrl: discord.endpoints.apiBaseUrl }), x: createXClient({ apiBaseUrl: x.endpoints.apiBaseUrl }) }),
    clock,
  };
});

afterAll(async () => {
  await discord?.close();
  await x?.close();
});

/** A user with the demo account's link of the provider, made through the whole flow. */
async function linkedUser(provider: SocialProvider, account: DemoAccountName) {
  const user = await world.user();
  const started = await startConnection(world.db, { userId: user.id, provider, ...linking });
  const back = await consentThrough(started.authorizationUrl, account);
  await completeConnection(world.db, { userId: user.id, provider, body: { state: back.state!, code: back.code! }, ...linking });
  return user;
}

const tokensFor = () => createConnectionTokens({ db: world.db, sealing: linking.sealing, oauth: linking.oauth, clock, waitStepMs: 20 });

/** Who the provider says a token belongs to; the status when it refuses the token. */
async function whoIs(provider: SocialProvider, token: string): Promise<string> {
  const outcome = await linking.accounts(provider, token);
  return outcome.status === 'ok' ? outcome.value.accountId : outcome.status;
}

describe.each(['discord', 'x'] as const)('%s tokens', (provider) => {
  const account = provider === 'discord' ? 'alice' : 'carol';
  const accountId = DEMO_ACCOUNTS[account][provider].id;

  it('a fresh token is handed out as stored, without asking the provider', async () => {
    const user = await linkedUser(provider, account);
    const before = tokenAnswers[provider].length;
    const result = await tokensFor().accessTokenFor(user.id, provider);
    expect(result).toMatchObject({ status: 'ok', accountId });
    expect(await whoIs(provider, (result as { token: string }).token)).toBe(accountId);
    expect(tokenAnswers[provider].length).toBe(before);
  });

  it('an expired token is renewed with the refresh token, the rotated pair saved, the old one dead', async () => {
    const user = await linkedUser(provider, account);
    const tokens = tokensFor();
    const first = await tokens.accessTokenFor(user.id, provider);
    if (first.status !== 'ok') throw new Error(first.status);
    const stored = await findUserConnection(world.db, { userId: user.id, provider });

    skewMs += PAST_EXPIRY_MS[provider];
    const renewed = await tokens.accessTokenFor(user.id, provider);
    if (renewed.status !== 'ok') throw new Error(JSON.stringify(renewed));
    expect(renewed.token).not.toBe(first.token);
    expect(await whoIs(provider, renewed.token)).toBe(accountId);
    const saved = await findUserConnection(world.db, { userId: user.id, provider });
    expect(saved!.accessTokenExpiresAt.getTime()).toBeGreaterThan(now());
    expect(saved!.refreshToken).not.toBe(stored!.refreshToken);
    expect(saved!.refreshClaimedUntil).toBeNull();
    // A second ask hands out the saved token: nothing renewed again.
    const before = tokenAnswers[provider].length;
    expect(await tokens.accessTokenFor(user.id, provider)).toEqual(renewed);
    expect(tokenAnswers[provider].length).toBe(before);
  });

  it('two callers of one instance at once on an expired token: one renewal, one token for both', async () => {
    const user = await linkedUser(provider, account);
    skewMs += PAST_EXPIRY_MS[provider];
    const before = tokenAnswers[provider].length;
    const tokens = tokensFor();
    const [a, b] = await Promise.all([tokens.accessTokenFor(user.id, provider), tokens.accessTokenFor(user.id, provider)]);
    expect(a.status).toBe('ok');
    expect(b).toEqual(a);
    expect(tokenAnswers[provider].length - before).toBe(1);
  });

  it('two instances at once on an expired token: the row claim lets one renew, the other waits for its token', async () => {
    const user = await linkedUser(provider, account);
    skewMs += PAST_EXPIRY_MS[provider];
    const before = tokenAnswers[provider].length;
    const results = await Promise.all([tokensFor(), tokensFor(), tokensFor()].map((tokens) => tokens.accessTokenFor(user.id, provider)));
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(new Set(results.map((r) => (r as { token: string }).token)).size).toBe(1);
    expect(tokenAnswers[provider].length - before).toBe(1);
  });

  it('a renewal the provider refuses (the user removed the app there) marks the link revoked, with why', async () => {
    const user = await linkedUser(provider, account);
    (provider === 'discord' ? discord : x).revokeAuthorizations(account);
    skewMs += PAST_EXPIRY_MS[provider];
    const result = await tokensFor().accessTokenFor(user.id, provider);
    expect(result).toMatchObject({ status: 'revoked', reason: expect.stringContaining('invalid_grant') });
    const row = await findUserConnection(world.db, { userId: user.id, provider });
    expect(row).toMatchObject({ status: 'revoked', refreshClaimedUntil: null });
    // Revoked stays revoked without asking the provider again.
    const before = tokenAnswers[provider].length;
    expect((await tokensFor().accessTokenFor(user.id, provider)).status).toBe('revoked');
    expect(tokenAnswers[provider].length).toBe(before);
  });

  it('a provider that is down leaves the link as it was: unavailable now, renewed once it is back', async () => {
    const user = await linkedUser(provider, account);
    skewMs += PAST_EXPIRY_MS[provider];
    const standIn = provider === 'discord' ? discord : x;
    standIn.faults.down('token');
    try {
      expect(await tokensFor().accessTokenFor(user.id, provider)).toMatchObject({ status: 'unavailable' });
    } finally {
      standIn.faults.clear();
    }
    expect(await findUserConnection(world.db, { userId: user.id, provider })).toMatchObject({ status: 'active', refreshClaimedUntil: null });
    expect((await tokensFor().accessTokenFor(user.id, provider)).status).toBe('ok');
  });

  it('a token the provider refused on a read marks the link revoked; a stale report after a new token does not', async () => {
    const user = await linkedUser(provider, account);
    const tokens = tokensFor();
    const first = await tokens.accessTokenFor(user.id, provider);
    if (first.status !== 'ok') throw new Error(first.status);
    await tokens.reportRejected(user.id, provider, 'not-the-stored-token', '401');
    expect((await findUserConnection(world.db, { userId: user.id, provider }))!.status).toBe('active');
    await tokens.reportRejected(user.id, provider, first.token, '401 Unauthorized');
    expect(await tokens.accessTokenFor(user.id, provider)).toMatchObject({ status: 'revoked', reason: expect.stringContaining('401 Unauthorized') });
  });
});

describe('links', () => {
  it('a user without a link of the provider has none', async () => {
    const user = await world.user();
    expect(await tokensFor().accessTokenFor(user.id, 'discord')).toEqual({ status: 'not_linked' });
  });

  it('tokens are sealed at rest: no plaintext in the row, and a sealed value moved to another user or column does not open', async () => {
    const user = await linkedUser('discord', 'alice');
    const result = await tokensFor().accessTokenFor(user.id, 'discord');
    if (result.status !== 'ok') throw new Error(result.status);
    const { userConnections } = schema;
    const [row] = await world.db.select().from(userConnections).where(and(eq(userConnections.userId, user.id), eq(userConnections.provider, 'discord')));
    expect(JSON.stringify(row)).not.toContain(result.token);
    const { sealing } = linking;
    expect(sealing.open(row!.accessToken, { userId: user.id, provider: 'discord', field: 'access_token' })).toBe(result.token);
    const other = await world.user();
    expect(() => sealing.open(row!.accessToken, { userId: other.id, provider: 'discord', field: 'access_token' })).toThrow();
    expect(() => sealing.open(row!.accessToken, { userId: user.id, provider: 'x', field: 'access_token' })).toThrow();
    expect(() => sealing.open(row!.accessToken, { userId: user.id, provider: 'discord', field: 'refresh_token' })).toThrow();
    expect(() => createConnectionTokenSealing('another-connection-token-key-of-32-chars').open(row!.accessToken, { userId: user.id, provider: 'discord', field: 'access_token' })).toThrow();
  });

  it('one provider account linked by several users is allowed, and found for duplicate flags', async () => {
    const [first, second] = [await linkedUser('x', 'carol'), await linkedUser('x', 'carol')];
    const loner = await linkedUser('x', 'bob');
    const unlinked = await world.user();
    const accounts = await connectedAccountsOf(world.db, [first.id, second.id, loner.id, unlinked.id], 'x');
    expect(accounts).toEqual(
      new Map([
        [first.id, DEMO_ACCOUNTS.carol.x.id],
        [second.id, DEMO_ACCOUNTS.carol.x.id],
        [loner.id, DEMO_ACCOUNTS.bob.x.id],
      ]),
    );
  });
});
