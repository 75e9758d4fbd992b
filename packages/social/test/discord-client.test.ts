import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordClient, createDiscordOAuth, type OAuthProvider } from '../src/index.js';
import { DEMO_ACCOUNTS, LOCAL_DISCORD_CLIENT, NEBULA, startLocalDiscord, type LocalDiscord, type LocalDiscordOptions, type LocalDiscordRoute } from '../src/local/index.js';
import { linkedTokens, REDIRECT_URI } from './support/consent.js';
import { answerRecorder, discordAnswerViolations } from './support/stand-in-contracts.js';

const { guildId } = NEBULA.discord;
const HOLDER = NEBULA.discord.roles.holder.id;

describe('the Discord client against the local Discord', () => {
  const recorder = answerRecorder<LocalDiscordRoute>(discordAnswerViolations);
  const started: LocalDiscord[] = [];
  const start = async (options: LocalDiscordOptions = {}) => {
    const discord = await startLocalDiscord({ ...options, onAnswer: recorder.record });
    started.push(discord);
    const oauth: OAuthProvider = createDiscordOAuth({ ...LOCAL_DISCORD_CLIENT, redirectUri: REDIRECT_URI, endpoints: discord.endpoints });
    return { discord, oauth, client: createDiscordClient({ apiBaseUrl: discord.endpoints.apiBaseUrl, timeoutMs: 500 }) };
  };
  let world: Awaited<ReturnType<typeof start>>;
  const tokenOf = async (account: 'alice' | 'bob' | 'carol') => (await linkedTokens(world.oauth, account)).accessToken;
  /** How many answers the stand-ins have given: a read refused locally adds none. */
  const answered = () => recorder.answers().length;

  beforeAll(async () => {
    world = await start();
  });
  afterAll(async () => {
    await Promise.all(started.map((discord) => discord.close()));
    expect(recorder.violations()).toEqual([]);
    expect(started.flatMap((discord) => discord.overLimitRequests())).toEqual([]);
  });

  it("reads the user and their Nebula roles: alice holds, bob is in without the role, carol is not in", async () => {
    const alice = await tokenOf('alice');
    expect(await world.client.currentUser(alice)).toMatchObject({ status: 'ok', value: { id: DEMO_ACCOUNTS.alice.discord.id, username: 'alice', global_name: 'Alice' } });
    const aliceMember = await world.client.guildMember(alice, guildId);
    expect(aliceMember).toMatchObject({ status: 'ok', value: { user: { id: DEMO_ACCOUNTS.alice.discord.id } } });
    expect(aliceMember.status === 'ok' && aliceMember.value?.roles).toContain(HOLDER);
    const bobMember = await world.client.guildMember(await tokenOf('bob'), guildId);
    expect(bobMember.status === 'ok' && bobMember.value?.roles).not.toContain(HOLDER);
    expect(bobMember.status === 'ok' && bobMember.value?.roles).toEqual([NEBULA.discord.roles.og.id]);
    expect(await world.client.guildMember(await tokenOf('carol'), guildId)).toEqual({ status: 'ok', value: null });
    expect(await world.client.guildMember(alice, '1000000000000000001')).toEqual({ status: 'ok', value: null });
  });

  it('sees a role taken away, and a member leaving, on the next read', async () => {
    const { discord, client, oauth } = await start();
    const alice = (await linkedTokens(oauth, 'alice')).accessToken;
    discord.setMemberRoles(guildId, DEMO_ACCOUNTS.alice.discord.id, [NEBULA.discord.roles.og.id]);
    const member = await client.guildMember(alice, guildId);
    expect(member.status === 'ok' && member.value?.roles).toEqual([NEBULA.discord.roles.og.id]);
    discord.removeMember(guildId, DEMO_ACCOUNTS.alice.discord.id);
    expect(await client.guildMember(alice, guildId)).toEqual({ status: 'ok', value: null });
  });

  it("turns a 429 into rate_limited with Discord's reset, and asks nothing more of that bucket before it", async () => {
    const { discord, client, oauth } = await start();
    const bob = (await linkedTokens(oauth, 'bob')).accessToken;
    discord.faults.rateLimit('guildMember', 30);
    const before = Date.now();
    const limited = await client.guildMember(bob, guildId);
    expect(limited.status).toBe('rate_limited');
    if (limited.status !== 'rate_limited') return;
    expect(limited.retryAfterMs).toBeGreaterThanOrEqual(29_000);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(31_000);
    expect(limited.resetAt.getTime()).toBeGreaterThanOrEqual(before + 29_000);

    const sent = answered();
    expect((await client.guildMember(bob, guildId)).status).toBe('rate_limited');
    expect(answered()).toBe(sent);
    // Another route has its own bucket.
    expect((await client.currentUser(bob)).status).toBe('ok');
  });

  it("stops at a spent bucket without sending, while another user's reads go on", async () => {
    // One request per window: the very first answer already says none remain.
    const { discord, client, oauth } = await start({ limits: { guildMember: { limit: 1, windowSeconds: 60 } } });
    const alice = (await linkedTokens(oauth, 'alice')).accessToken;
    expect((await client.guildMember(alice, guildId)).status).toBe('ok');
    const sent = answered();
    const second = await client.guildMember(alice, guildId);
    expect(second).toMatchObject({ status: 'rate_limited' });
    expect(second.status === 'rate_limited' && second.retryAfterMs).toBeGreaterThan(50_000);
    expect(answered()).toBe(sent);
    expect((await client.guildMember((await linkedTokens(oauth, 'bob')).accessToken, guildId)).status).toBe('ok');
    expect(discord.overLimitRequests()).toEqual([]);
  });

  it('reports a slow Discord as unavailable within its bound, and reads again once it recovers', async () => {
    const alice = await tokenOf('alice');
    world.discord.faults.slow('currentUser', 60_000);
    expect(await world.client.currentUser(alice)).toEqual({ status: 'unavailable', reason: 'Discord did not answer in time' });
    world.discord.faults.clear();
    expect((await world.client.currentUser(alice)).status).toBe('ok');
  });

  it('reports a Discord that drops connections, or is not there, as unavailable', async () => {
    const alice = await tokenOf('alice');
    world.discord.faults.down('*');
    expect((await world.client.guildMember(alice, guildId)).status).toBe('unavailable');
    world.discord.faults.clear();
    const gone = await start();
    const token = (await linkedTokens(gone.oauth, 'alice')).accessToken;
    await gone.discord.close();
    expect((await gone.client.currentUser(token)).status).toBe('unavailable');
  });

  it('reports a revoked authorization, or a token without the member scope, as token_rejected', async () => {
    const bob = await tokenOf('bob');
    const identifyOnly = (await linkedTokens(world.oauth, 'carol', ['identify'])).accessToken;
    expect(await world.client.guildMember(identifyOnly, guildId)).toMatchObject({ status: 'token_rejected', httpStatus: 403 });
    world.discord.revokeAuthorizations('bob');
    expect(await world.client.guildMember(bob, guildId)).toMatchObject({ status: 'token_rejected', httpStatus: 401 });
    expect(await world.client.currentUser(bob)).toMatchObject({ status: 'token_rejected', httpStatus: 401 });
  });

  it('refuses, without asking Discord, a guild id that is not a snowflake', async () => {
    const alice = await tokenOf('alice');
    const sent = answered();
    await expect(world.client.guildMember(alice, '../../users/@me')).rejects.toThrow(RangeError);
    expect(answered()).toBe(sent);
  });
});
