import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordClient, createDiscordOAuth, createXClient, createXOAuth } from '../../src/index.js';
import {
  LOCAL_DISCORD_CLIENT,
  LOCAL_X_CLIENT,
  NEBULA,
  startLocalDiscord,
  startLocalX,
  type LocalDiscord,
  type LocalDiscordRoute,
  type LocalX,
  type LocalXRoute,
  type StandInAnswer,
} from '../../src/local/index.js';
import { linkedTokens, REDIRECT_URI } from '../support/consent.js';
import { answerRecorder, discordAnswerViolations, xAnswerViolations } from '../support/stand-in-contracts.js';

type Body = Record<string, unknown>;

/** The same answer with its JSON body changed. */
const withBody = <R extends string>(answer: StandInAnswer<R>, change: (body: Body) => void): StandInAnswer<R> => {
  const body = JSON.parse(answer.body) as Body;
  change(body);
  return { ...answer, body: JSON.stringify(body) };
};

/**
 * The contract tests pass only if the checks can fail: real stand-in answers, each with one field
 * of the wrong type (or a header, status or content type the document does not allow), must be
 * refused. Were a check validating against an empty schema, or the wrong operation, these fail.
 */
describe('a stand-in answer that drifts from the published document is caught', () => {
  const discordAnswers = answerRecorder<LocalDiscordRoute>(discordAnswerViolations);
  const xAnswers = answerRecorder<LocalXRoute>(xAnswerViolations);
  let discord: LocalDiscord;
  let x: LocalX;

  const discordAnswer = (route: LocalDiscordRoute, status: number) => discordAnswers.answers().find((a) => a.route === route && a.status === status)!;
  const xAnswer = (route: LocalXRoute, status: number) => xAnswers.answers().find((a) => a.route === route && a.status === status)!;

  beforeAll(async () => {
    discord = await startLocalDiscord({ onAnswer: discordAnswers.record });
    x = await startLocalX({ onAnswer: xAnswers.record });
    const discordClient = createDiscordClient({ apiBaseUrl: discord.endpoints.apiBaseUrl });
    const alice = await linkedTokens(createDiscordOAuth({ ...LOCAL_DISCORD_CLIENT, redirectUri: REDIRECT_URI, endpoints: discord.endpoints }), 'alice');
    await discordClient.currentUser(alice.accessToken);
    await discordClient.guildMember(alice.accessToken, NEBULA.discord.guildId);
    await discordClient.guildMember(alice.accessToken, '1');
    discord.faults.rateLimit('currentUser', 30);
    await discordClient.currentUser(alice.accessToken);

    const xClient = createXClient({ apiBaseUrl: x.endpoints.apiBaseUrl });
    const carol = await linkedTokens(createXOAuth({ ...LOCAL_X_CLIENT, redirectUri: REDIRECT_URI, endpoints: x.endpoints }), 'carol');
    await xClient.me(carol.accessToken);
    await xClient.follows(carol.accessToken, NEBULA.x.userId);
    await fetch(`${x.endpoints.apiBaseUrl}/2/users/nebula`, { headers: { authorization: `Bearer ${carol.accessToken}` } });
    await xClient.me('not-a-token');
  });
  afterAll(async () => {
    await discord.close();
    await x.close();
  });

  it('the answers as given fit', () => {
    expect(discordAnswers.violations()).toEqual([]);
    expect(xAnswers.violations()).toEqual([]);
  });

  it('Discord: a number where the document has a snowflake string, a role id that is not one, a missing required field', () => {
    const user = discordAnswer('currentUser', 200);
    const member = discordAnswer('guildMember', 200);
    expect(discordAnswerViolations(withBody(user, (b) => (b.id = 298033820467200001)))).not.toEqual([]);
    expect(discordAnswerViolations(withBody(user, (b) => delete b.locale))).not.toEqual([]);
    expect(discordAnswerViolations(withBody(member, (b) => (b.roles = [882596904960000001])))).not.toEqual([]);
    expect(discordAnswerViolations(withBody(member, (b) => (b.joined_at = 'last tuesday')))).not.toEqual([]);
    expect(discordAnswerViolations(withBody(member, (b) => ((b.user as Body).global_name = 7)))).not.toEqual([]);
  });

  it('Discord: errors, 429s and their rate-limit headers', () => {
    const unknownGuild = discordAnswer('guildMember', 404);
    const limited = discordAnswer('currentUser', 429);
    expect(discordAnswerViolations(withBody(unknownGuild, (b) => (b.code = '10004')))).not.toEqual([]);
    expect(discordAnswerViolations(withBody(limited, (b) => (b.retry_after = 'soon')))).not.toEqual([]);
    expect(discordAnswerViolations(withBody(limited, (b) => delete b.global))).not.toEqual([]);
    expect(discordAnswerViolations({ ...limited, headers: { ...limited.headers, 'x-ratelimit-remaining': 'none' } })).not.toEqual([]);
    const { 'x-ratelimit-bucket': _bucket, ...withoutBucket } = limited.headers;
    expect(discordAnswerViolations({ ...limited, headers: withoutBucket })).not.toEqual([]);
    expect(discordAnswerViolations({ ...limited, status: 503 })).not.toEqual([]);
    expect(discordAnswerViolations({ ...limited, contentType: 'text/plain' })).not.toEqual([]);
  });

  it('X: a number where the document has a string id, a creation time that is not one, an unknown connection status', () => {
    const me = xAnswer('me', 200);
    const lookups = xAnswers.answers().filter((a) => a.route === 'user' && a.status === 200);
    const target = lookups.find((a) => a.body.includes('connection_status'))!;
    expect(xAnswerViolations(withBody(me, (b) => ((b.data as Body).id = 1134791702737846272)))).not.toEqual([]);
    expect(xAnswerViolations(withBody(me, (b) => ((b.data as Body).created_at = 'in 2019')))).not.toEqual([]);
    expect(xAnswerViolations(withBody(target, (b) => ((b.data as Body).connection_status = ['friends'])))).not.toEqual([]);
    expect(xAnswerViolations(withBody(target, (b) => (b.data = [b.data])))).not.toEqual([]);
  });

  it('X: error bodies, by their content type', () => {
    const unauthorized = xAnswer('me', 401);
    const invalid = xAnswer('user', 400);
    expect(xAnswerViolations(withBody(unauthorized, (b) => (b.code = 'eighty-nine')))).not.toEqual([]);
    expect(xAnswerViolations(withBody(unauthorized, (b) => delete b.message))).not.toEqual([]);
    expect(xAnswerViolations(withBody(invalid, (b) => (b.type = 'about:blank')))).not.toEqual([]);
    expect(xAnswerViolations({ ...invalid, contentType: 'text/html' })).not.toEqual([]);
  });

  it('OAuth: a token answer off RFC 6749', () => {
    const token = discordAnswers.answers().find((a) => a.route === 'token' && a.status === 200)!;
    expect(discordAnswerViolations(withBody(token, (b) => (b.expires_in = String(b.expires_in))))).not.toEqual([]);
    expect(discordAnswerViolations(withBody(token, (b) => delete b.access_token))).not.toEqual([]);
    expect(discordAnswerViolations({ ...token, headers: { ...token.headers, 'cache-control': 'max-age=60' } })).not.toEqual([]);
    expect(discordAnswerViolations({ ...token, status: 400 })).not.toEqual([]);
  });
});
