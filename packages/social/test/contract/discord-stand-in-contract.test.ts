import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordClient, createDiscordOAuth } from '../../src/index.js';
import { LOCAL_DISCORD_CLIENT, NEBULA, startLocalDiscord, type LocalDiscord, type LocalDiscordRoute } from '../../src/local/index.js';
import { consentAs, linkedTokens, REDIRECT_URI } from '../support/consent.js';
import { answeredKinds, answerRecorder, discordAnswerViolations } from '../support/stand-in-contracts.js';

/**
 * Every kind of answer the Discord stand-in gives, provoked through the clients the platform uses,
 * each held to Discord's published OpenAPI document (REST) or to the OAuth RFCs (the document has
 * no OAuth endpoints).
 */
describe('the Discord stand-in answers as Discord documents', () => {
  const recorder = answerRecorder<LocalDiscordRoute>(discordAnswerViolations);
  let discord: LocalDiscord;

  beforeAll(async () => {
    discord = await startLocalDiscord({ onAnswer: recorder.record });
  });
  afterAll(() => discord.close());

  it('in every answer of every endpoint used, success and error alike', async () => {
    const oauth = createDiscordOAuth({ ...LOCAL_DISCORD_CLIENT, redirectUri: REDIRECT_URI, endpoints: discord.endpoints });
    const client = createDiscordClient({ apiBaseUrl: discord.endpoints.apiBaseUrl });
    const alice = await linkedTokens(oauth, 'alice');
    const carol = await linkedTokens(oauth, 'carol');
    const identifyOnly = await linkedTokens(oauth, 'bob', ['identify']);

    expect((await client.currentUser(alice.accessToken)).status).toBe('ok');
    expect((await client.guildMember(alice.accessToken, NEBULA.discord.guildId)).status).toBe('ok');
    expect(await client.guildMember(carol.accessToken, NEBULA.discord.guildId)).toEqual({ status: 'ok', value: null });
    expect((await client.guildMember(identifyOnly.accessToken, NEBULA.discord.guildId)).status).toBe('token_rejected');
    expect((await client.currentUser('not-a-token')).status).toBe('token_rejected');
    discord.faults.rateLimit('*', 30);
    expect((await client.currentUser(carol.accessToken)).status).toBe('rate_limited');
    expect((await client.guildMember(carol.accessToken, NEBULA.discord.guildId)).status).toBe('rate_limited');
    discord.faults.clear();

    expect((await oauth.refresh(alice.refreshToken!)).ok).toBe(true);
    expect(await oauth.refresh('not-a-refresh-token')).toMatchObject({ ok: false, failure: { error: 'invalid_grant' } });
    const impostor = createDiscordOAuth({ clientId: LOCAL_DISCORD_CLIENT.clientId, clientSecret: 'wrong', redirectUri: REDIRECT_URI, endpoints: discord.endpoints });
    expect(await impostor.refresh(carol.refreshToken!)).toMatchObject({ ok: false, failure: { error: 'invalid_client' } });
    expect(await impostor.revoke(carol.accessToken)).toMatchObject({ ok: false, failure: { error: 'invalid_client' } });
    expect(await oauth.revoke(carol.accessToken)).toEqual({ ok: true });
    const unsupported = await fetch(`${discord.endpoints.apiBaseUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', client_id: LOCAL_DISCORD_CLIENT.clientId, client_secret: LOCAL_DISCORD_CLIENT.clientSecret }),
    });
    expect(unsupported.status).toBe(400);

    expect((await consentAs(oauth, 'deny')).location.searchParams.get('error')).toBe('access_denied');
    const page = await fetch(oauth.authorizationUrl({ state: 's', codeVerifier: 'v'.repeat(43) }));
    expect(page.status).toBe(200);
    const unknownClient = new URL(`${discord.endpoints.webBaseUrl}/oauth2/authorize?client_id=nobody&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`);
    expect((await fetch(unknownClient)).status).toBe(400);

    expect(answeredKinds(recorder.answers())).toEqual(
      [
        'authorize 200', 'authorize 302', 'authorize 400',
        'currentUser 200', 'currentUser 401', 'currentUser 429',
        'guildMember 200', 'guildMember 403', 'guildMember 404', 'guildMember 429',
        'revoke 200', 'revoke 401',
        'token 200', 'token 400', 'token 401',
      ].sort(),
    );
    expect(recorder.violations()).toEqual([]);
  });
});
