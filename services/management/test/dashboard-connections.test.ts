import { randomBytes } from 'node:crypto';
import { insertUser } from '@raffle/db';
import { startLocalSocial, type LocalSocial } from '@raffle/service-kit/testing/local-social';
import { createDiscordClient, createXClient, createXOAuth, type SocialProvider } from '@raffle/social';
import { DEMO_ACCOUNTS, type DemoAccountName } from '@raffle/social/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { connectionsOf } from '../src/decorations.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema, type Seen } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { tokenFor } from './support/jwt.js';
import { capturedLogLines } from './support/log-scan.js';

/**
 * Discord and X accounts linked by OAuth 2.0 with PKCE, against the local stand-ins: the flow
 * for both providers, every refusal of a callback, listing, unlinking (which revokes at the
 * provider), and that no token reaches a response or a log line (every token the stand-ins issue
 * is registered as a secret; the file's log scan fails on any).
 */

let testDb: TestDatabase;
let app: ManagementApp;
let social: LocalSocial;

const CONSOLE = 'http://127.0.0.1:3003';
/** Another application registered with the same provider. */
const OTHER_CLIENT = { clientId: 'another-application', clientSecret: 'another-application-secret' };
const BASE = '/api/dashboard/me/connections';

beforeAll(async () => {
  testDb = await createTestDatabase();
  social = await startLocalSocial({ redirectBaseUrl: CONSOLE, otherClients: [OTHER_CLIENT] });
  app = await buildTestApp(testDb.database, testDb.url, social.env);
});

afterAll(async () => {
  await app?.close();
  await social?.close();
  await testDb?.drop();
});

const auth = (userId: string) => ({ authorization: `Bearer ${tokenFor(userId)}` });
const newUser = () => insertUser(testDb.database.db, { handle: `linker-${randomBytes(5).toString('hex')}` });
const codeOf = (res: Seen, status: number) => String(expectManagementError(res, status).message).split(':')[0];
const accountOf = (provider: SocialProvider, account: DemoAccountName) => DEMO_ACCOUNTS[account][provider];

async function start(userId: string, provider: SocialProvider) {
  const res = await app.inject({ method: 'POST', url: `${BASE}/${provider}/start`, headers: auth(userId) });
  expect(res.statusCode, res.body).toBe(201);
  expectSchema('ConnectionStart', res.json());
  return res.json() as { authorizationUrl: string; expiresAt: string };
}

/** The browser's round trip: consent at the stand-in as `account`, and what it sends back. */
async function consent(userId: string, provider: SocialProvider, account: DemoAccountName | 'deny') {
  return social.consent((await start(userId, provider)).authorizationUrl, account);
}

const callback = (userId: string, provider: SocialProvider, body: Record<string, string | null>) =>
  app.inject({ method: 'POST', url: `${BASE}/${provider}/callback`, headers: auth(userId), payload: body });

async function link(userId: string, provider: SocialProvider, account: DemoAccountName) {
  const back = await consent(userId, provider, account);
  const res = await callback(userId, provider, { state: back.state, code: back.code });
  expect(res.statusCode, res.body).toBe(201);
  expectSchema('Connection', res.json());
  return res;
}

async function list(userId: string) {
  const res = await app.inject({ method: 'GET', url: BASE, headers: auth(userId) });
  expect(res.statusCode, res.body).toBe(200);
  expectSchema('ConnectionList', res.json());
  return res.json() as { data: Array<{ provider: string; accountId: string; accountName: string; status: string }>; providers: string[] };
}

/**
 * Leaves `userId` the only user here linking the account: this file's tests link the same three
 * demo accounts over and over, and a grant another user's link shares is not revoked.
 */
async function onlyLinker(userId: string, provider: SocialProvider, account: DemoAccountName): Promise<void> {
  await testDb.database.sql`delete from user_connections where provider = ${provider} and account_id = ${accountOf(provider, account).id} and user_id <> ${userId}`;
}

/** The access token the link holds now (as requirement checks get it). */
async function storedToken(userId: string, provider: SocialProvider): Promise<string> {
  const result = await connectionsOf(app).tokens.accessTokenFor(userId, provider);
  if (result.status !== 'ok') throw new Error(`no token: ${result.status}`);
  return result.token;
}

/** Who the provider says the token is; the outcome's status when it refuses it. */
async function whoIs(provider: SocialProvider, token: string): Promise<string> {
  const outcome =
    provider === 'discord'
      ? await createDiscordClient({ apiBaseUrl: social.discord.endpoints.apiBaseUrl }).currentUser(token)
      : await createXClient({ apiBaseUrl: social.x.endpoints.apiBaseUrl }).me(token);
  return outcome.status === 'ok' ? outcome.value.id : outcome.status;
}

describe.each([
  ['discord', 'alice'],
  ['x', 'carol'],
] as const)('linking %s', (provider, account) => {
  it(`start gives the stand-in's consent URL with PKCE S256, the state and the console's callback; consenting as ${account} links the account`, async () => {
    const user = await newUser();
    const { authorizationUrl, expiresAt } = await start(user.id, provider);
    const url = new URL(authorizationUrl);
    const standIn = provider === 'discord' ? social.discord : social.x;
    expect(url.origin).toBe(new URL(standIn.endpoints.webBaseUrl).origin);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('redirect_uri')).toBe(`${CONSOLE}/connections/${provider}/callback`);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const ttlMs = Date.parse(expiresAt) - Date.now();
    expect(ttlMs).toBeGreaterThan(9 * 60_000);
    expect(ttlMs).toBeLessThanOrEqual(10 * 60_000);

    const res = await link(user.id, provider, account);
    const token = await storedToken(user.id, provider);
    expect(res.body).not.toContain(token);
    expect(res.json()).toMatchObject({ provider, accountId: accountOf(provider, account).id, accountName: accountOf(provider, account).username, status: 'active' });
    const listed = await list(user.id);
    expect(listed.data).toEqual([res.json()]);
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(await whoIs(provider, token)).toBe(accountOf(provider, account).id);
  });

  it('unlinking removes the link and revokes its grant: the token then answers token_rejected; a second unlink is 404', async () => {
    const user = await newUser();
    await link(user.id, provider, account);
    await onlyLinker(user.id, provider, account);
    const token = await storedToken(user.id, provider);
    const res = await app.inject({ method: 'DELETE', url: `${BASE}/${provider}`, headers: auth(user.id) });
    expect(res.statusCode, res.body).toBe(204);
    expect((await list(user.id)).data).toEqual([]);
    expect(await whoIs(provider, token)).toBe('token_rejected');
    expect(codeOf(await app.inject({ method: 'DELETE', url: `${BASE}/${provider}`, headers: auth(user.id) }), 404)).toBe('CONNECTION_NOT_FOUND');
  });

  it('linking another account replaces the link and revokes the replaced grant', async () => {
    const user = await newUser();
    await link(user.id, provider, account);
    await onlyLinker(user.id, provider, account);
    const replaced = await storedToken(user.id, provider);
    await link(user.id, provider, 'bob');
    expect((await list(user.id)).data).toMatchObject([{ provider, accountId: accountOf(provider, 'bob').id, accountName: 'bob' }]);
    expect(await whoIs(provider, replaced)).toBe('token_rejected');
    expect(await whoIs(provider, await storedToken(user.id, provider))).toBe(accountOf(provider, 'bob').id);
  });
});

describe('refusals of the callback', () => {
  it('a state that was never issued is 400 OAUTH_STATE_INVALID', async () => {
    const user = await newUser();
    const res = await callback(user.id, 'discord', { state: randomBytes(24).toString('base64url'), code: 'whatever' });
    expect(codeOf(res, 400)).toBe('OAUTH_STATE_INVALID');
  });

  it('a state used once is 409 OAUTH_STATE_USED the second time, and the account stays linked once', async () => {
    const user = await newUser();
    const back = await consent(user.id, 'discord', 'alice');
    expect((await callback(user.id, 'discord', { state: back.state, code: back.code })).statusCode).toBe(201);
    const again = await callback(user.id, 'discord', { state: back.state, code: back.code });
    expect(codeOf(again, 409)).toBe('OAUTH_STATE_USED');
    expect((await list(user.id)).data).toHaveLength(1);
  });

  it('an expired state is 409 OAUTH_STATE_EXPIRED, and the code is never sent to the provider', async () => {
    const user = await newUser();
    const back = await consent(user.id, 'x', 'carol');
    await testDb.database.sql`update oauth_link_states set expires_at = now() - interval '1 second' where user_id = ${user.id}`;
    expect(codeOf(await callback(user.id, 'x', { state: back.state, code: back.code }), 409)).toBe('OAUTH_STATE_EXPIRED');
    expect((await list(user.id)).data).toEqual([]);
  });

  it("another user's state is 400 OAUTH_STATE_INVALID and leaves it to its user, who still completes", async () => {
    const [victim, attacker] = [await newUser(), await newUser()];
    const back = await consent(victim.id, 'discord', 'alice');
    expect(codeOf(await callback(attacker.id, 'discord', { state: back.state, code: back.code }), 400)).toBe('OAUTH_STATE_INVALID');
    expect((await list(attacker.id)).data).toEqual([]);
    expect((await callback(victim.id, 'discord', { state: back.state, code: back.code })).statusCode).toBe(201);
  });

  it("a state of one provider's flow sent to the other's callback (mix-up) is 400 OAUTH_STATE_INVALID", async () => {
    const user = await newUser();
    const back = await consent(user.id, 'discord', 'alice');
    const res = await callback(user.id, 'x', { state: back.state, code: back.code });
    expect(codeOf(res, 400)).toBe('OAUTH_STATE_INVALID');
    expect(res.json()).toMatchObject({ message: expect.stringContaining('started for Discord') });
  });

  it('the user declining at the provider is 403 OAUTH_ACCESS_DENIED, and the state is used up', async () => {
    const user = await newUser();
    const back = await consent(user.id, 'x', 'deny');
    expect(back.error).toBe('access_denied');
    expect(codeOf(await callback(user.id, 'x', { state: back.state, error: back.error }), 403)).toBe('OAUTH_ACCESS_DENIED');
    expect(codeOf(await callback(user.id, 'x', { state: back.state, error: back.error }), 409)).toBe('OAUTH_STATE_USED');
  });

  it("a code the provider refuses (another flow's, another client's) is 400 OAUTH_CODE_REJECTED", async () => {
    const user = await newUser();
    const ours = await consent(user.id, 'discord', 'alice');
    // A code of another flow of the same client was challenged with another verifier: PKCE refuses it.
    const other = await consent(user.id, 'discord', 'alice');
    expect(codeOf(await callback(user.id, 'discord', { state: ours.state, code: other.code }), 400)).toBe('OAUTH_CODE_REJECTED');
    // A code the provider issued to another application: it refuses it to ours.
    const foreign = createXOAuth({ ...OTHER_CLIENT, redirectUri: `${CONSOLE}/connections/x/callback`, endpoints: social.x.endpoints });
    const stray = await social.consent(foreign.authorizationUrl({ state: 's'.repeat(32), codeVerifier: 'v'.repeat(43) }), 'carol');
    const mine = await consent(user.id, 'x', 'carol');
    expect(codeOf(await callback(user.id, 'x', { state: mine.state, code: stray.code }), 400)).toBe('OAUTH_CODE_REJECTED');
    expect((await list(user.id)).data).toEqual([]);
  });

  it('a provider that is down is 503 PROVIDER_UNAVAILABLE with Retry-After; the state is kept and the same callback links once it is back', async () => {
    const user = await newUser();
    const back = await consent(user.id, 'discord', 'alice');
    social.discord.faults.down('token');
    try {
      const res = await callback(user.id, 'discord', { state: back.state, code: back.code });
      expect(codeOf(res, 503)).toBe('PROVIDER_UNAVAILABLE');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      social.discord.faults.clear();
    }
    expect((await callback(user.id, 'discord', { state: back.state, code: back.code })).statusCode).toBe(201);
  });

  it('a body with neither code nor error, or both, is 400 VALIDATION_FAILED; an unknown provider too', async () => {
    const user = await newUser();
    const back = await consent(user.id, 'discord', 'alice');
    expect(codeOf(await callback(user.id, 'discord', { state: back.state }), 400)).toBe('VALIDATION_FAILED');
    expect(codeOf(await callback(user.id, 'discord', { state: back.state, code: back.code, error: 'access_denied' }), 400)).toBe('VALIDATION_FAILED');
    expect(codeOf(await app.inject({ method: 'POST', url: `${BASE}/github/start`, headers: auth(user.id) }), 400)).toBe('VALIDATION_FAILED');
    // Refused before the state was looked at: it still completes.
    expect((await callback(user.id, 'discord', { state: back.state, code: back.code })).statusCode).toBe(201);
  });
});

describe('listing and unlinking', () => {
  it('lists nothing for a new user, with the providers offered; both links by provider', async () => {
    const user = await newUser();
    expect(await list(user.id)).toEqual({ data: [], providers: ['discord', 'x'] });
    await link(user.id, 'x', 'carol');
    await link(user.id, 'discord', 'alice');
    expect((await list(user.id)).data.map((c) => c.provider)).toEqual(['discord', 'x']);
  });

  it('one account linked by several users is allowed (raffles flag it); unlinking one leaves the grant the provider shares with the other', async () => {
    const [first, second] = [await newUser(), await newUser()];
    await link(first.id, 'discord', 'alice');
    await onlyLinker(first.id, 'discord', 'alice');
    await link(second.id, 'discord', 'alice');
    expect((await list(second.id)).data).toMatchObject([{ accountId: DEMO_ACCOUNTS.alice.discord.id }]);
    const firstToken = await storedToken(first.id, 'discord');
    expect((await app.inject({ method: 'DELETE', url: `${BASE}/discord`, headers: auth(first.id) })).statusCode).toBe(204);
    // Not revoked: at Discord that would end alice's one authorization of the app, the second user's link with it.
    expect(await whoIs('discord', firstToken)).toBe(DEMO_ACCOUNTS.alice.discord.id);
    expect(await whoIs('discord', await storedToken(second.id, 'discord'))).toBe(DEMO_ACCOUNTS.alice.discord.id);
    // The last one to unlink revokes it.
    const secondToken = await storedToken(second.id, 'discord');
    expect((await app.inject({ method: 'DELETE', url: `${BASE}/discord`, headers: auth(second.id) })).statusCode).toBe(204);
    expect(await whoIs('discord', secondToken)).toBe('token_rejected');
  });

  it('unlinking while the provider is down still unlinks here, and the log says the grant was not revoked (no token in it)', async () => {
    const user = await newUser();
    await link(user.id, 'x', 'carol');
    await onlyLinker(user.id, 'x', 'carol');
    const token = await storedToken(user.id, 'x');
    const mark = capturedLogLines.length;
    social.x.faults.down('revoke');
    try {
      expect((await app.inject({ method: 'DELETE', url: `${BASE}/x`, headers: auth(user.id) })).statusCode).toBe(204);
    } finally {
      social.x.faults.clear();
    }
    expect((await list(user.id)).data).toEqual([]);
    const logged = capturedLogLines.slice(mark).join('\n');
    expect(logged).toMatch(/grant was not revoked at the provider/);
    expect(logged).toMatch(/"reason":"the provider could not be reached"/);
    expect(logged).toContain('"provider":"x"');
    expect(logged).not.toContain(token);
    // Not revoked: the provider still answers to it until it expires or the user removes the app.
    expect(await whoIs('x', token)).toBe(DEMO_ACCOUNTS.carol.x.id);
  });
});

describe('access', () => {
  it('every connection route needs a session: 401 without one', async () => {
    const routes = app.managedRoutes.filter((r) => r.url.startsWith('/api/dashboard/me/connections'));
    expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'DELETE /api/dashboard/me/connections/:provider',
      'GET /api/dashboard/me/connections',
      'POST /api/dashboard/me/connections/:provider/callback',
      'POST /api/dashboard/me/connections/:provider/start',
    ]);
    for (const route of routes) {
      const res = await app.inject({ method: route.method as 'GET', url: route.url.replace(':provider', 'discord'), payload: route.method === 'POST' ? {} : undefined });
      expect(codeOf(res, 401)).toBe('SESSION_TOKEN_MISSING');
    }
  });

  it('a provider without a client configured is not offered: listed without it, start 404 PROVIDER_NOT_CONFIGURED', async () => {
    const { X_CLIENT_ID: _id, X_CLIENT_SECRET: _secret, ...discordOnly } = social.env;
    const partial = await buildTestApp(testDb.database, testDb.url, discordOnly);
    try {
      const user = await newUser();
      const listed = await partial.inject({ method: 'GET', url: BASE, headers: auth(user.id) });
      expect(listed.json()).toEqual({ data: [], providers: ['discord'] });
      expect(codeOf(await partial.inject({ method: 'POST', url: `${BASE}/x/start`, headers: auth(user.id) }), 404)).toBe('PROVIDER_NOT_CONFIGURED');
    } finally {
      await partial.close();
    }
  });
});
