import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createXClient, createXOAuth } from '../../src/index.js';
import { LOCAL_X_CLIENT, NEBULA, startLocalX, type LocalX, type LocalXRoute } from '../../src/local/index.js';
import { consentAs, linkedTokens, REDIRECT_URI } from '../support/consent.js';
import { answeredKinds, answerRecorder, xAnswerViolations } from '../support/stand-in-contracts.js';

/**
 * Every kind of answer the X stand-in gives, provoked through the clients the platform uses, each
 * held to X's published OpenAPI document (v2 reads) or to the OAuth RFCs (the document has no
 * OAuth endpoints).
 */
describe('the X stand-in answers as X documents', () => {
  const recorder = answerRecorder<LocalXRoute>(xAnswerViolations);
  let x: LocalX;

  beforeAll(async () => {
    x = await startLocalX({ onAnswer: recorder.record });
  });
  afterAll(() => x.close());

  it('in every answer of every endpoint used, success and error alike', async () => {
    const oauth = createXOAuth({ ...LOCAL_X_CLIENT, redirectUri: REDIRECT_URI, endpoints: x.endpoints });
    const client = createXClient({ apiBaseUrl: x.endpoints.apiBaseUrl });
    const carol = await linkedTokens(oauth, 'carol');
    const bob = await linkedTokens(oauth, 'bob');
    const withoutTweetRead = await linkedTokens(oauth, 'alice', ['users.read', 'offline.access']);

    expect((await client.me(carol.accessToken)).status).toBe('ok');
    expect(await client.follows(carol.accessToken, NEBULA.x.userId)).toEqual({ status: 'ok', value: true });
    expect(await client.follows(bob.accessToken, NEBULA.x.userId)).toEqual({ status: 'ok', value: false });
    expect(await client.follows(bob.accessToken, '1')).toEqual({ status: 'ok', value: false });
    const byName = await fetch(`${x.endpoints.apiBaseUrl}/2/users/nebula`, { headers: { authorization: `Bearer ${bob.accessToken}` } });
    expect(byName.status).toBe(400);
    expect((await client.me(withoutTweetRead.accessToken)).status).toBe('token_rejected');
    expect((await client.me('not-a-token')).status).toBe('token_rejected');
    x.faults.rateLimit('*', 60);
    expect((await client.me(bob.accessToken)).status).toBe('rate_limited');
    expect((await client.follows(bob.accessToken, NEBULA.x.userId)).status).toBe('rate_limited');
    x.faults.clear();

    expect((await oauth.refresh(carol.refreshToken!)).ok).toBe(true);
    expect(await oauth.refresh(carol.refreshToken!)).toMatchObject({ ok: false, failure: { error: 'invalid_grant' } });
    const impostor = createXOAuth({ clientId: LOCAL_X_CLIENT.clientId, clientSecret: 'wrong', redirectUri: REDIRECT_URI, endpoints: x.endpoints });
    expect(await impostor.revoke(bob.accessToken)).toMatchObject({ ok: false, failure: { error: 'invalid_client' } });
    expect(await impostor.exchangeCode('any', 'v'.repeat(43))).toMatchObject({ ok: false, failure: { error: 'invalid_client' } });
    expect(await oauth.revoke(bob.accessToken)).toEqual({ ok: true });

    expect((await consentAs(oauth, 'deny')).location.searchParams.get('error')).toBe('access_denied');
    expect((await fetch(oauth.authorizationUrl({ state: 's', codeVerifier: 'v'.repeat(43) }))).status).toBe(200);
    const noRedirect = new URL(`${x.endpoints.webBaseUrl}/i/oauth2/authorize?client_id=${LOCAL_X_CLIENT.clientId}&response_type=code`);
    expect((await fetch(noRedirect)).status).toBe(400);

    expect(answeredKinds(recorder.answers())).toEqual(
      [
        'authorize 200', 'authorize 302', 'authorize 400',
        'me 200', 'me 401', 'me 403', 'me 429',
        'revoke 200', 'revoke 401',
        'token 200', 'token 400', 'token 401',
        'user 200', 'user 400', 'user 429',
      ].sort(),
    );
    expect(recorder.violations()).toEqual([]);
  });
});
