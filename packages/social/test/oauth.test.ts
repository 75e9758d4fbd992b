import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDiscordClient,
  createDiscordOAuth,
  createXClient,
  createXOAuth,
  DISCORD_SCOPES,
  generateCodeVerifier,
  X_SCOPES,
  type OAuthProvider,
  type OAuthProviderOptions,
  type ProviderEndpoints,
} from '../src/index.js';
import {
  DEMO_ACCOUNTS,
  LOCAL_DISCORD_CLIENT,
  LOCAL_X_CLIENT,
  startLocalDiscord,
  startLocalX,
  type LocalOAuthClient,
  type StandInAnswer,
} from '../src/local/index.js';
import { consentAs, linkedTokens, REDIRECT_URI } from './support/consent.js';
import { discordAnswerViolations, xAnswerViolations } from './support/stand-in-contracts.js';

type StandIn = { endpoints: ProviderEndpoints; faults: { slow(route: 'token', delayMs: number): void; clear(): void }; close(): Promise<void> };

/** What differs between the providers; every flow below runs against both stand-ins. */
type ProviderCase = {
  name: string;
  client: LocalOAuthClient;
  scopes: readonly string[];
  start(options: { clients: LocalOAuthClient[]; now: () => number; onAnswer: (answer: StandInAnswer<string>) => void }): Promise<StandIn>;
  oauth(options: OAuthProviderOptions): OAuthProvider;
  /** The account id the provider's API reports for an access token, or the outcome's status when it refuses. */
  whoIs(endpoints: ProviderEndpoints, accessToken: string): Promise<string>;
  aliceId: string;
  checkAnswer(answer: StandInAnswer<string>): string[];
  codeTtlSeconds: number;
};

const CASES: ProviderCase[] = [
  {
    name: 'Discord',
    client: LOCAL_DISCORD_CLIENT,
    scopes: DISCORD_SCOPES,
    start: (options) => startLocalDiscord(options),
    oauth: createDiscordOAuth,
    async whoIs(endpoints, accessToken) {
      const outcome = await createDiscordClient({ apiBaseUrl: endpoints.apiBaseUrl }).currentUser(accessToken);
      return outcome.status === 'ok' ? outcome.value.id : outcome.status;
    },
    aliceId: DEMO_ACCOUNTS.alice.discord.id,
    checkAnswer: (answer) => discordAnswerViolations(answer as Parameters<typeof discordAnswerViolations>[0]),
    codeTtlSeconds: 600,
  },
  {
    name: 'X',
    client: LOCAL_X_CLIENT,
    scopes: X_SCOPES,
    start: (options) => startLocalX(options),
    oauth: createXOAuth,
    async whoIs(endpoints, accessToken) {
      const outcome = await createXClient({ apiBaseUrl: endpoints.apiBaseUrl }).me(accessToken);
      return outcome.status === 'ok' ? outcome.value.id : outcome.status;
    },
    aliceId: DEMO_ACCOUNTS.alice.x.id,
    checkAnswer: (answer) => xAnswerViolations(answer as Parameters<typeof xAnswerViolations>[0]),
    codeTtlSeconds: 30,
  },
];

describe.each(CASES)('OAuth 2.0 with PKCE against the local $name', (provider) => {
  // Characters HTTP Basic carries form-encoded (RFC 6749 §2.3.1): a colon, a space, a plus, a percent.
  const otherClient: LocalOAuthClient = { clientId: 'another app', clientSecret: 'another:app +secret/&%' };
  let clockOffsetMs = 0;
  const answers: StandInAnswer<string>[] = [];
  let standIn: StandIn;
  const oauthFor = async (client: LocalOAuthClient, overrides: Partial<OAuthProviderOptions> = {}) =>
    provider.oauth({ ...client, redirectUri: REDIRECT_URI, endpoints: standIn.endpoints, ...overrides });
  const whoIs = (accessToken: string) => provider.whoIs(standIn.endpoints, accessToken);

  beforeAll(async () => {
    standIn = await provider.start({ clients: [provider.client, otherClient], now: () => Date.now() + clockOffsetMs, onAnswer: (a) => void answers.push(a) });
  });
  afterAll(async () => {
    await standIn.close();
    expect(answers.flatMap(provider.checkAnswer)).toEqual([]);
  });

  it('sends the browser to consent with the S256 challenge of the verifier, the state and the scopes', async () => {
    const oauth = await oauthFor(provider.client);
    const codeVerifier = generateCodeVerifier();
    const url = oauth.authorizationUrl({ state: 'state-1', codeVerifier });
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: provider.client.clientId,
      redirect_uri: REDIRECT_URI,
      state: 'state-1',
      code_challenge_method: 'S256',
      code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
      scope: provider.scopes.join(' '),
    });
    const page = await (await fetch(url)).text();
    for (const account of ['alice', 'bob', 'carol']) expect(page).toContain(`value="${account}"`);
  });

  it("links an account: consent, the code and its verifier exchanged, the token reads the user's account", async () => {
    const oauth = await oauthFor(provider.client);
    const { code, codeVerifier, location, state } = await consentAs(oauth, 'alice');
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe(state);
    const result = await oauth.exchangeCode(code!, codeVerifier);
    expect(result).toMatchObject({ ok: true, tokens: { scopes: [...provider.scopes] } });
    if (!result.ok) return;
    expect(result.tokens.refreshToken).toEqual(expect.any(String));
    expect(result.tokens.accessTokenExpiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(await whoIs(result.tokens.accessToken)).toBe(provider.aliceId);
  });

  it('authenticates a client whose id and secret must be form-encoded inside HTTP Basic', async () => {
    const tokens = await linkedTokens(await oauthFor(otherClient), 'alice');
    expect(await whoIs(tokens.accessToken)).toBe(provider.aliceId);
  });

  it('refuses a code with the wrong verifier, or none', async () => {
    const oauth = await oauthFor(provider.client);
    const { code } = await consentAs(oauth, 'alice');
    expect(await oauth.exchangeCode(code!, generateCodeVerifier())).toMatchObject({ ok: false, failure: { kind: 'refused', error: 'invalid_grant' } });
    expect(await oauth.exchangeCode(code!, '')).toMatchObject({ ok: false, failure: { kind: 'refused', error: 'invalid_grant' } });
  });

  it('refuses a code used twice, and ends what its first use gave', async () => {
    const oauth = await oauthFor(provider.client);
    const { code, codeVerifier } = await consentAs(oauth, 'alice');
    const first = await oauth.exchangeCode(code!, codeVerifier);
    expect(first.ok).toBe(true);
    expect(await oauth.exchangeCode(code!, codeVerifier)).toMatchObject({ ok: false, failure: { error: 'invalid_grant' } });
    if (first.ok) expect(await whoIs(first.tokens.accessToken)).toBe('token_rejected');
  });

  it("refuses a code issued to another client, or sent back with another redirect URI", async () => {
    const { code, codeVerifier } = await consentAs(await oauthFor(provider.client), 'alice');
    expect(await (await oauthFor(otherClient)).exchangeCode(code!, codeVerifier)).toMatchObject({ ok: false, failure: { error: 'invalid_grant' } });
    const elsewhere = await oauthFor(provider.client, { redirectUri: 'http://127.0.0.1:9/elsewhere' });
    expect(await elsewhere.exchangeCode(code!, codeVerifier)).toMatchObject({ ok: false, failure: { error: 'invalid_grant' } });
  });

  it('refuses a code past its lifetime', async () => {
    const oauth = await oauthFor(provider.client);
    const { code, codeVerifier } = await consentAs(oauth, 'alice');
    clockOffsetMs = (provider.codeTtlSeconds + 1) * 1000;
    try {
      expect(await oauth.exchangeCode(code!, codeVerifier)).toMatchObject({ ok: false, failure: { error: 'invalid_grant' } });
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('refreshes: a new pair works, the old refresh token and access token no longer do', async () => {
    const oauth = await oauthFor(provider.client);
    const linked = await linkedTokens(oauth, 'alice');
    const refreshed = await oauth.refresh(linked.refreshToken!);
    expect(refreshed.ok).toBe(true);
    if (!refreshed.ok) return;
    expect(refreshed.tokens.accessToken).not.toBe(linked.accessToken);
    expect(await whoIs(refreshed.tokens.accessToken)).toBe(provider.aliceId);
    expect(await whoIs(linked.accessToken)).toBe('token_rejected');
    expect(await oauth.refresh(linked.refreshToken!)).toMatchObject({ ok: false, failure: { error: 'invalid_grant' } });
  });

  it('revokes: the access token stops working and its refresh token with it', async () => {
    const oauth = await oauthFor(provider.client);
    const linked = await linkedTokens(oauth, 'alice');
    expect(await oauth.revoke(linked.accessToken)).toEqual({ ok: true });
    expect(await whoIs(linked.accessToken)).toBe('token_rejected');
    expect(await oauth.refresh(linked.refreshToken!)).toMatchObject({ ok: false, failure: { error: 'invalid_grant' } });
    // Revoking again, or a token the provider never issued, is not an error (RFC 7009).
    expect(await oauth.revoke(linked.accessToken)).toEqual({ ok: true });
  });

  it('brings a refusal at the consent page back to the redirect with the state', async () => {
    const { location, state } = await consentAs(await oauthFor(provider.client), 'deny');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('reports a token endpoint slower than its bound as unavailable', async () => {
    const oauth = await oauthFor(provider.client, { timeoutMs: 200 });
    const { code, codeVerifier } = await consentAs(oauth, 'alice');
    standIn.faults.slow('token', 60_000);
    try {
      expect(await oauth.exchangeCode(code!, codeVerifier)).toMatchObject({ ok: false, failure: { kind: 'unavailable' } });
    } finally {
      standIn.faults.clear();
    }
  });
});

describe('what only X does', () => {
  it('refuses an authorization request without a PKCE challenge, and gives no refresh token without offline.access', async () => {
    const x = await startLocalX();
    try {
      const oauth = createXOAuth({ ...LOCAL_X_CLIENT, redirectUri: REDIRECT_URI, endpoints: x.endpoints });
      const url = oauth.authorizationUrl({ state: 's', codeVerifier: generateCodeVerifier() });
      url.searchParams.delete('code_challenge');
      url.searchParams.delete('code_challenge_method');
      url.searchParams.set('as', 'alice');
      const location = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      const tokens = await linkedTokens(oauth, 'carol', ['tweet.read', 'users.read']);
      expect(tokens.refreshToken).toBeNull();
    } finally {
      await x.close();
    }
  });
});
