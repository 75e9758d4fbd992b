import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createXClient, createXOAuth, type OAuthProvider } from '../src/index.js';
import { DEMO_ACCOUNTS, LOCAL_X_CLIENT, NEBULA, startLocalX, type LocalX, type LocalXOptions, type LocalXRoute } from '../src/local/index.js';
import { linkedTokens, REDIRECT_URI } from './support/consent.js';
import { answerRecorder, xAnswerViolations } from './support/stand-in-contracts.js';

const DAY_MS = 86_400_000;

describe('the X client against the local X', () => {
  const recorder = answerRecorder<LocalXRoute>(xAnswerViolations);
  const started: LocalX[] = [];
  const start = async (options: LocalXOptions = {}) => {
    const x = await startLocalX({ ...options, onAnswer: recorder.record });
    started.push(x);
    const oauth: OAuthProvider = createXOAuth({ ...LOCAL_X_CLIENT, redirectUri: REDIRECT_URI, endpoints: x.endpoints });
    return { x, oauth, client: createXClient({ apiBaseUrl: x.endpoints.apiBaseUrl, timeoutMs: 500 }) };
  };
  let world: Awaited<ReturnType<typeof start>>;
  const tokenOf = async (account: 'alice' | 'bob' | 'carol') => (await linkedTokens(world.oauth, account)).accessToken;
  const answered = () => recorder.answers().length;

  beforeAll(async () => {
    world = await start();
  });
  afterAll(async () => {
    await Promise.all(started.map((x) => x.close()));
    expect(recorder.violations()).toEqual([]);
    expect(started.flatMap((x) => x.overLimitRequests())).toEqual([]);
  });

  it("reads the account with its creation time: alice's is years old, bob's days", async () => {
    const alice = await world.client.me(await tokenOf('alice'));
    expect(alice).toEqual({ status: 'ok', value: { id: DEMO_ACCOUNTS.alice.x.id, username: 'alice', name: 'Alice', createdAt: world.x.users.get('alice')!.createdAt } });
    const bob = await world.client.me(await tokenOf('bob'));
    expect(bob.status === 'ok' && bob.value.createdAt).toEqual(world.x.users.get('bob')!.createdAt);
    const ageDays = (account: 'alice' | 'bob') => Math.floor((world.x.users.get(account)!.createdAt.getTime() - Date.now()) / -DAY_MS);
    expect(ageDays('alice')).toBeGreaterThan(365);
    expect(ageDays('bob')).toBeLessThan(30);
  });

  it('tells who follows Nebula: carol does, alice does not until she follows; an unknown account is followed by no one', async () => {
    const carol = await tokenOf('carol');
    const alice = await tokenOf('alice');
    expect(await world.client.follows(carol, NEBULA.x.userId)).toEqual({ status: 'ok', value: true });
    expect(await world.client.follows(alice, NEBULA.x.userId)).toEqual({ status: 'ok', value: false });
    world.x.setFollowing('alice', NEBULA.x.userId, true);
    expect(await world.client.follows(alice, NEBULA.x.userId)).toEqual({ status: 'ok', value: true });
    world.x.setFollowing('alice', NEBULA.x.userId, false);
    expect(await world.client.follows(alice, NEBULA.x.userId)).toEqual({ status: 'ok', value: false });
    expect(await world.client.follows(carol, '999')).toEqual({ status: 'ok', value: false });
  });

  it("turns a 429 into rate_limited until X's x-rate-limit-reset, and sends nothing more to that endpoint before it", async () => {
    const { x, client, oauth } = await start();
    const carol = (await linkedTokens(oauth, 'carol')).accessToken;
    x.faults.rateLimit('user', 120);
    const limited = await client.follows(carol, NEBULA.x.userId);
    const answer = recorder.answers().at(-1)!;
    expect(answer).toMatchObject({ route: 'user', status: 429 });
    expect(limited).toMatchObject({ status: 'rate_limited', resetAt: new Date(Number(answer.headers['x-rate-limit-reset']) * 1000) });
    expect(limited.status === 'rate_limited' && limited.retryAfterMs).toBeGreaterThan(100_000);

    const sent = answered();
    expect((await client.follows(carol, NEBULA.x.userId)).status).toBe('rate_limited');
    expect(answered()).toBe(sent);
    // users/me is another endpoint with its own limit.
    expect((await client.me(carol)).status).toBe('ok');
  });

  it("stops at a spent limit without sending, while another user's reads go on", async () => {
    const { x, client, oauth } = await start({ limits: { me: { limit: 1, windowSeconds: 900 } } });
    const bob = (await linkedTokens(oauth, 'bob')).accessToken;
    expect((await client.me(bob)).status).toBe('ok');
    const sent = answered();
    expect(await client.me(bob)).toMatchObject({ status: 'rate_limited' });
    expect(answered()).toBe(sent);
    expect((await client.me((await linkedTokens(oauth, 'alice')).accessToken)).status).toBe('ok');
    expect(x.overLimitRequests()).toEqual([]);
  });

  it('reports a slow or dropping X as unavailable within its bound, and reads again once it recovers', async () => {
    const carol = await tokenOf('carol');
    world.x.faults.slow('user', 60_000);
    expect(await world.client.follows(carol, NEBULA.x.userId)).toMatchObject({ status: 'unavailable' });
    world.x.faults.down('me');
    expect(await world.client.me(carol)).toMatchObject({ status: 'unavailable' });
    world.x.faults.clear();
    expect(await world.client.follows(carol, NEBULA.x.userId)).toEqual({ status: 'ok', value: true });
  });

  it('reports a revoked authorization, or a token without tweet.read, as token_rejected', async () => {
    const carol = await tokenOf('carol');
    const withoutTweetRead = (await linkedTokens(world.oauth, 'bob', ['users.read', 'follows.read'])).accessToken;
    expect(await world.client.follows(withoutTweetRead, NEBULA.x.userId)).toMatchObject({ status: 'token_rejected', httpStatus: 403 });
    world.x.revokeAuthorizations('carol');
    expect(await world.client.follows(carol, NEBULA.x.userId)).toMatchObject({ status: 'token_rejected', httpStatus: 401 });
  });

  it('refuses, without asking X, a target that is not an X user id', async () => {
    const carol = await tokenOf('carol');
    const sent = answered();
    await expect(world.client.follows(carol, '../users/me')).rejects.toThrow(RangeError);
    expect(answered()).toBe(sent);
  });
});
