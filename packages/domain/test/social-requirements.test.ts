import { setTimeout as sleep } from 'node:timers/promises';
import { schema } from '@raffle/db';
import { DEMO_ACCOUNTS, NEBULA } from '@raffle/social/local';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeRaffle,
  createProviderDrawWaits,
  drawRaffle,
  enterRaffle,
  manualClock,
  ProviderWaitAtDraw,
  publishRaffle,
  requirementProblems,
  runDueTransitions,
  settlePendingEntries,
  userPrincipal,
  type RaffleRecord,
  type SocialCheck,
} from '../src/index.js';
import { startSocialWorld, type SocialWorld } from './support/social-world.js';
import { useWorld } from './support/world.js';

/**
 * Discord and X requirements (issue 36, decision 0045) against the local stand-ins of both
 * providers and the real Postgres: accounts linked through the connections' own OAuth flow,
 * evaluated with each entrant's own token at entry, pending while a provider is down or asks to
 * wait, settled later, and re-read at the draw.
 */

const world = useWorld();
let sw: SocialWorld;

beforeAll(async () => {
  sw = await startSocialWorld(world.db);
});
afterAll(async () => {
  await sw?.close();
});

const GUILD = NEBULA.discord.guildId;
const HOLDER = NEBULA.discord.roles.holder.id;
const OG = NEBULA.discord.roles.og.id;

const req = {
  member: { id: 'member', type: 'discord_member', label: 'In the Nebula server', params: { guildId: GUILD } },
  holder: { id: 'holder', type: 'discord_role', label: 'Holder role', params: { guildId: GUILD, roleIds: [HOLDER], match: 'any' } },
  holderAndOg: { id: 'holder-og', type: 'discord_role', label: 'Holder and OG', params: { guildId: GUILD, roleIds: [HOLDER, OG], match: 'all' } },
  og: { id: 'og', type: 'discord_role', label: 'OG role', params: { guildId: GUILD, roleIds: [OG], match: 'any' } },
  follows: { id: 'follows', type: 'x_follows', label: 'Follows @nebula', params: { userId: NEBULA.x.userId } },
  aged: { id: 'aged', type: 'x_account_age_days', label: 'X account 30 days old', params: { min: 30 } },
} as const;

const raffleWith = (...requirements: object[]) => world.openRaffle({ requirements: requirements as never, spots: 10 });

const enter = (raffleId: string, userId: string, social: SocialCheck = sw.social) =>
  enterRaffle(world.db, { raffle: { raffleId }, actor: userPrincipal(userId), source: 'api', social, beacon: world.beacon.chain });

/** A new user with these demo accounts linked, per provider. */
async function linked(accounts: { discord?: keyof typeof DEMO_ACCOUNTS; x?: keyof typeof DEMO_ACCOUNTS } = {}) {
  const user = await world.user();
  if (accounts.discord) await sw.link(user.id, 'discord', accounts.discord);
  if (accounts.x) await sw.link(user.id, 'x', accounts.x);
  return user;
}

async function refusal(promise: Promise<unknown>) {
  const error = (await promise.then(() => null, (e: unknown) => e)) as { code?: string; failedRequirements?: unknown[] } | null;
  expect(error?.code).toBe('REQUIREMENTS_NOT_MET');
  return error!.failedRequirements!;
}

type OwnerView = { status: string; statusReason?: string; requirements: { type: string; label: string; passed: boolean; detail?: string }[] };

async function stored(entryId: string) {
  const [row] = await world.db.select().from(schema.entries).where(eq(schema.entries.id, entryId));
  return { row: row!, owner: JSON.parse(row!.ownerJson) as OwnerView, workspace: JSON.parse(row!.workspaceJson) as Record<string, unknown> };
}

const settle = (social: SocialCheck = sw.social) => settlePendingEntries({ db: world.db, chain: { reader: null, timeoutMs: 100 }, social, beacon: world.beacon.chain });

/** Settles until the entry is no longer pending (its provider's wait over), at most `passes` times, a quarter second apart. */
async function settledEventually(entryId: string, passes = 60) {
  for (let i = 0; i < passes; i++) {
    await settle();
    const { owner } = await stored(entryId);
    if (owner.status !== 'pending') return owner;
    await sleep(250);
  }
  throw new Error(`entry ${entryId} still pending after ${passes} passes`);
}

const answered = (route: string) => sw.answers.get(route) ?? 0;

describe('each type at entry, with the entrant\'s own linked account', () => {
  it('discord_member: a member passes, someone outside the server is refused with what to know', async () => {
    const raffle = await raffleWith(req.member);
    const alice = await linked({ discord: 'alice' });
    const { entry } = await enter(raffle.id, alice.id);
    expect(entry.status).toBe('valid');
    expect((await stored(entry.id)).owner.requirements).toEqual([{ type: 'discord_member', label: 'In the Nebula server', passed: true, detail: 'a member of the Discord server' }]);
    const carol = await linked({ discord: 'carol' });
    expect(await refusal(enter(raffle.id, carol.id))).toEqual([{ type: 'discord_member', label: 'In the Nebula server', detail: 'not a member of the Discord server' }]);
  });

  it('discord_role: any of the roles, or all of them', async () => {
    const any = await raffleWith(req.holder);
    const all = await raffleWith(req.holderAndOg);
    const alice = await linked({ discord: 'alice' });
    const bob = await linked({ discord: 'bob' });
    expect((await enter(any.id, alice.id)).entry.status).toBe('valid');
    expect((await enter(all.id, alice.id)).entry.status).toBe('valid');
    expect(await refusal(enter(any.id, bob.id))).toEqual([{ type: 'discord_role', label: 'Holder role', detail: 'does not hold the required role in the Discord server' }]);
    expect(await refusal(enter(all.id, bob.id))).toEqual([{ type: 'discord_role', label: 'Holder and OG', detail: 'holds 1 of the 2 required roles in the Discord server' }]);
  });

  it('x_follows: a follower passes, someone who does not follow is refused', async () => {
    const raffle = await raffleWith(req.follows);
    const carol = await linked({ x: 'carol' });
    expect((await enter(raffle.id, carol.id)).entry.status).toBe('valid');
    const alice = await linked({ x: 'alice' });
    expect(await refusal(enter(raffle.id, alice.id))).toEqual([{ type: 'x_follows', label: 'Follows @nebula', detail: 'does not follow the X account' }]);
  });

  it('x_account_age_days: an old account passes, a 3-day-old one is refused with its age', async () => {
    const raffle = await raffleWith(req.aged);
    const alice = await linked({ x: 'alice' });
    const { entry } = await enter(raffle.id, alice.id);
    expect((await stored(entry.id)).owner.requirements).toEqual([{ type: 'x_account_age_days', label: 'X account 30 days old', passed: true, detail: 'X account is 4000 days old, needs 30' }]);
    const bob = await linked({ x: 'bob' });
    expect(await refusal(enter(raffle.id, bob.id))).toEqual([{ type: 'x_account_age_days', label: 'X account 30 days old', detail: 'X account is 3 days old, needs 30' }]);
  });

  it('an entrant with no linked account is told to link one; an optional requirement only weighs', async () => {
    const raffle = await raffleWith(req.member, { ...req.follows, params: { ...req.follows.params, optional: true, multiplier: 2 } });
    const nobody = await world.user();
    expect(await refusal(enter(raffle.id, nobody.id))).toEqual([{ type: 'discord_member', label: 'In the Nebula server', detail: 'no Discord account linked: link your Discord account' }]);
    const both = await linked({ discord: 'alice', x: 'carol' });
    expect((await enter(raffle.id, both.id)).entry).toMatchObject({ status: 'valid', entryWeight: '2.000000' });
    const discordOnly = await linked({ discord: 'bob' });
    const { entry } = await enter(raffle.id, discordOnly.id);
    expect(entry).toMatchObject({ status: 'valid', entryWeight: '1.000000' });
    expect((await stored(entry.id)).owner.requirements[1]).toEqual({ type: 'x_follows', label: 'Follows @nebula', passed: false, detail: 'no X account linked: link your X account' });
  });

  it('two requirements on one server cost one read, and one user asked twice at once is asked once', async () => {
    const raffle = await raffleWith(req.member, req.holder);
    const alice = await linked({ discord: 'alice' });
    const before = answered('guildMember');
    expect((await enter(raffle.id, alice.id)).entry.status).toBe('valid');
    expect(answered('guildMember') - before).toBe(1);

    // Slow answers keep the first read in flight while the second asks the same.
    sw.discord.faults.slow('guildMember', 300);
    try {
      const start = answered('guildMember');
      const [a, b] = await Promise.all([sw.social.reader!.verdicts([raffle.requirements[0]!], [alice.id]), sw.social.reader!.verdicts([raffle.requirements[1]!], [alice.id])]);
      expect([a[0]![0]!.state, b[0]![0]!.state]).toEqual(['decided', 'decided']);
      expect(answered('guildMember') - start).toBe(1);
    } finally {
      sw.discord.faults.clear();
    }
  });
});

describe('a provider that cannot be asked leaves the entry pending, settled later', () => {
  it('429: pending until the reset, nothing sent before it, then settled', async () => {
    const raffle = await raffleWith(req.holder);
    const alice = await linked({ discord: 'alice' });
    sw.discord.faults.rateLimit('guildMember', 2);
    const { entry } = await enter(raffle.id, alice.id);
    expect(entry.status).toBe('pending');
    const pending = (await stored(entry.id)).owner;
    expect(pending.requirements[0]).toMatchObject({ passed: false });
    expect(pending.requirements[0]!.detail).toMatch(/^not evaluated yet: Discord asked to wait until \d{4}-\d\d-\d\dT/);

    // The wait is kept for every replica: a pass before the reset, here or on another instance
    // (which never saw the 429), sends nothing and leaves the entry pending.
    const [wait] = await world.db.select().from(schema.connectionRateLimits).where(eq(schema.connectionRateLimits.userId, alice.id));
    expect(wait).toMatchObject({ provider: 'discord' });
    const sent = answered('guildMember');
    for (const social of [sw.social, sw.replica()]) {
      const early = await settle(social);
      expect(early.silentRaffleIds).toContain(raffle.id);
    }
    expect(answered('guildMember')).toBe(sent);
    expect((await stored(entry.id)).owner.status).toBe('pending');

    const settled = await settledEventually(entry.id);
    expect(settled).toMatchObject({ status: 'valid', requirements: [{ passed: true, detail: 'holds the required role in the Discord server' }] });
    expect(sw.overLimitRequests()).toEqual([]);
  });

  it('down: pending while Discord drops every connection, settled once it is back; other raffles are not held back', async () => {
    const gated = await raffleWith(req.member);
    const other = await raffleWith(req.aged);
    const alice = await linked({ discord: 'alice', x: 'alice' });
    sw.discord.faults.down('guildMember');
    let entryId: string;
    try {
      const { entry } = await enter(gated.id, alice.id);
      entryId = entry.id;
      expect(entry.status).toBe('pending');
      expect((await stored(entry.id)).owner.requirements[0]!.detail).toBe('not evaluated yet: Discord did not answer');
      // X still answers: a raffle reading only X is decided at once.
      expect((await enter(other.id, alice.id)).entry.status).toBe('valid');
      const pass = await settle();
      expect(pass.silentRaffleIds).toContain(gated.id);
      expect((await stored(entry.id)).owner.status).toBe('pending');
    } finally {
      sw.discord.faults.clear();
    }
    expect(await settledEventually(entryId)).toMatchObject({ status: 'valid' });
  });

  it('a required requirement the provider answered refuses even while another waits', async () => {
    const raffle = await raffleWith(req.holder, req.follows);
    const bob = await linked({ discord: 'bob', x: 'carol' });
    sw.x.faults.down('user');
    try {
      expect(await refusal(enter(raffle.id, bob.id))).toEqual([{ type: 'discord_role', label: 'Holder role', detail: 'does not hold the required role in the Discord server' }]);
    } finally {
      sw.x.faults.clear();
    }
  });
});

describe('the draw reads the providers again', () => {
  const close = (raffle: RaffleRecord) => closeRaffle(world.db, { actor: world.team, raffleId: raffle.id, beacon: world.beacon.chain });
  const draw = (raffle: RaffleRecord) => drawRaffle(world.db, { actor: world.team, raffleId: raffle.id, rounds: world.beacon, social: sw.social });

  it('an entrant who lost the role before the draw is not drawn: the entry is invalid with the reason', async () => {
    const raffle = await raffleWith(req.og);
    const alice = await linked({ discord: 'alice' });
    const bob = await linked({ discord: 'bob' });
    const kept = (await enter(raffle.id, alice.id)).entry;
    const lost = (await enter(raffle.id, bob.id)).entry;
    expect([kept.status, lost.status]).toEqual(['valid', 'valid']);
    sw.discord.setMemberRoles(GUILD, DEMO_ACCOUNTS.bob.discord.id, []);
    try {
      await close(raffle);
      await draw(raffle);
    } finally {
      sw.discord.setMemberRoles(GUILD, DEMO_ACCOUNTS.bob.discord.id, [OG]);
    }
    const dropped = await stored(lost.id);
    expect(dropped.owner).toMatchObject({ status: 'invalid', statusReason: 'Requirements not met: OG role', requirements: [{ passed: false, detail: 'does not hold the required role in the Discord server' }] });
    const wins = await world.db.select().from(schema.wins).where(eq(schema.wins.raffleId, raffle.id));
    expect(wins.map((w) => w.entryId)).toEqual([kept.id]);
  });

  it('while Discord is down the draw waits: nothing is done, the raffle stays closed, and it draws once Discord is back', async () => {
    const raffle = await raffleWith(req.member);
    const alice = await linked({ discord: 'alice' });
    const { entry } = await enter(raffle.id, alice.id);
    await close(raffle);
    sw.discord.faults.down('guildMember');
    try {
      const error = await draw(raffle).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderWaitAtDraw);
      expect(error).toMatchObject({ provider: 'discord', reason: 'unavailable', retryAfterSeconds: 10 });
      const [row] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffle.id));
      expect(row!.status).toBe('closed');
      expect((await stored(entry.id)).owner.status).toBe('valid');
    } finally {
      sw.discord.faults.clear();
    }
    expect((await draw(raffle)).status).toBe('drawn');
  });

  it('an auto-draw waits like one on a silent chain: the raffle stays closed, listed under waitingOnProvider, and is drawn once Discord answers', async () => {
    const start = new Date();
    const clock = manualClock(start);
    const draft = await world.raffle({ requirements: [req.member] as never, spots: 5, endsAt: new Date(start.getTime() + 60_000).toISOString(), settings: { autoDraw: true } as never }, clock);
    const raffle = await publishRaffle(world.db, { actor: world.team, raffleId: draft.id, clock });
    const alice = await linked({ discord: 'alice' });
    const { entry } = await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(alice.id), source: 'api', social: sw.social, clock, beacon: world.beacon.chain });
    expect(entry.status).toBe('valid');
    const providerWaits = createProviderDrawWaits();
    const pass = () => runDueTransitions(world.db, { clock, beacon: world.beacon.chain, rounds: world.beacon, social: sw.social, providerWaits });
    clock.set(new Date(start.getTime() + 61_000));
    sw.discord.faults.down('guildMember');
    try {
      const waiting = await pass();
      expect(waiting.waitingOnProvider).toContainEqual({ raffleId: raffle.id, providers: ['discord'], reason: 'unavailable' });
      const [row] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffle.id));
      expect(row!.status).toBe('closed');
      // Not asked again before its retry time, even with Discord back.
      sw.discord.faults.clear();
      const sent = answered('guildMember');
      expect((await pass()).waitingOnProvider).toContainEqual({ raffleId: raffle.id, providers: ['discord'], reason: 'unavailable' });
      expect(answered('guildMember')).toBe(sent);
    } finally {
      sw.discord.faults.clear();
    }
    clock.set(new Date(start.getTime() + 64_000));
    const drawn = await pass();
    expect(drawn.waitingOnProvider.filter((w) => w.raffleId === raffle.id)).toEqual([]);
    const [row] = await world.db.select().from(schema.raffles).where(eq(schema.raffles.id, raffle.id));
    expect(row!.status).toBe('drawn');
  });

  it('a link revoked at the provider fails the entrant at the draw, and marks the link revoked', async () => {
    // Last in the file: the stand-in ends every grant of the account, other users' links of it included.
    const raffle = await raffleWith(req.member);
    const carolInGuild = await linked({ discord: 'carol' });
    sw.discord.setMemberRoles(GUILD, DEMO_ACCOUNTS.carol.discord.id, []);
    try {
      const { entry } = await enter(raffle.id, carolInGuild.id);
      expect(entry.status).toBe('valid');
      sw.discord.revokeAuthorizations('carol');
      await close(raffle);
      expect((await draw(raffle)).status).toBe('drawn');
      expect(await world.db.select().from(schema.wins).where(eq(schema.wins.raffleId, raffle.id))).toEqual([]);
      expect((await stored(entry.id)).owner).toMatchObject({ status: 'invalid', requirements: [{ passed: false, detail: 'your Discord link expired; link it again' }] });
      const [link] = await world.db.select().from(schema.userConnections).where(eq(schema.userConnections.userId, carolInGuild.id));
      expect(link!.status).toBe('revoked');
    } finally {
      sw.discord.removeMember(GUILD, DEMO_ACCOUNTS.carol.discord.id);
    }
  });
});

describe('one account linked by several users', () => {
  it('flags their entries (discordReuse) in a raffle reading Discord, and the draw leaves them out when told to', async () => {
    const raffle = await world.openRaffle({ requirements: [req.member] as never, spots: 10, settings: { autoDraw: false, autoFinalize: false, excludeFlaggedDuplicates: true } as never });
    const first = await linked({ discord: 'alice' });
    const second = await linked({ discord: 'alice' });
    const alone = await linked({ discord: 'bob' });
    const a = (await enter(raffle.id, first.id)).entry;
    const b = (await enter(raffle.id, second.id)).entry;
    const c = (await enter(raffle.id, alone.id)).entry;
    expect((await stored(b.id)).row.duplicateFlags).toEqual({ discordReuse: [a.id] });
    expect((await stored(a.id)).row.duplicateFlags).toEqual({ discordReuse: [b.id] });
    expect((await stored(a.id)).workspace.duplicateFlags).toEqual({ discordReuse: [b.id] });
    expect((await stored(c.id)).row.duplicateFlags).toEqual({});

    // A raffle that reads no Discord does not look at Discord accounts.
    const plain = await world.openRaffle({ spots: 10 });
    await enter(plain.id, first.id);
    const again = (await enter(plain.id, second.id)).entry;
    expect((await stored(again.id)).row.duplicateFlags).toEqual({});

    await closeRaffle(world.db, { actor: world.team, raffleId: raffle.id, beacon: world.beacon.chain });
    await drawRaffle(world.db, { actor: world.team, raffleId: raffle.id, rounds: world.beacon, social: sw.social });
    const wins = await world.db.select().from(schema.wins).where(eq(schema.wins.raffleId, raffle.id));
    expect(wins.map((w) => w.entryId)).toEqual([c.id]);
  });
});

describe('what is kept and shown', () => {
  it('no token and no account id in entries, verdicts or events; the workspace sees type, label and passed', async () => {
    const raffle = await raffleWith(req.holder, req.follows);
    const user = await linked({ discord: 'alice', x: 'carol' });
    const { entry } = await enter(raffle.id, user.id);
    expect(entry.status).toBe('valid');
    const links = await world.db.select().from(schema.userConnections).where(eq(schema.userConnections.userId, user.id));
    const tokens = await Promise.all((['discord', 'x'] as const).map((p) => sw.tokens.accessTokenFor(user.id, p)));
    const secrets = [
      ...links.map((l) => l.accountId),
      ...tokens.map((t) => (t.status === 'ok' ? t.token : 'missing')),
      DEMO_ACCOUNTS.alice.discord.id,
      DEMO_ACCOUNTS.carol.x.id,
    ];
    expect(secrets).not.toContain('missing');
    const evaluations = await world.db.select().from(schema.entryRequirementEvaluations).where(eq(schema.entryRequirementEvaluations.entryId, entry.id));
    const events = await world.db.select().from(schema.eventOutbox).where(inArray(schema.eventOutbox.userId, [user.id]));
    const kept = JSON.stringify([await stored(entry.id), evaluations, events, await world.events()]);
    for (const secret of secrets) expect(kept).not.toContain(secret);
  });
});

describe('what a raffle may require', () => {
  const problems = (requirement: object, options: { providers?: string[] } = {}) => requirementProblems([{ id: 'r', label: 'r', ...requirement } as never], options);

  it('takes the four types with well-formed ids, and says what is wrong with each param otherwise', () => {
    for (const r of Object.values(req)) expect(problems(r)).toEqual([]);
    expect(problems({ type: 'discord_member', params: { guildId: '123' } })).toEqual([
      "requirements[0].params.guildId must be the Discord server's id (a snowflake: 17 to 20 digits, as a string)",
    ]);
    expect(problems({ type: 'discord_role', params: { guildId: GUILD, roleIds: [], match: 'some' } })).toEqual([
      'requirements[0].params.roleIds must be a list of 1 to 20 Discord role ids',
      'requirements[0].params.match must be "any" (one of the roles) or "all" (every one)',
    ]);
    expect(problems({ type: 'discord_role', params: { guildId: GUILD, roleIds: [HOLDER, HOLDER, 'og'], match: 'all' } })).toEqual([
      'requirements[0].params.roleIds[2] must be a Discord role id (a snowflake: 17 to 20 digits, as a string)',
    ]);
    expect(problems({ type: 'discord_role', params: { guildId: GUILD, roleIds: Array.from({ length: 21 }, (_, i) => `${10n ** 17n + BigInt(i)}`), match: 'any' } })).toEqual([
      'requirements[0].params.roleIds must be a list of 1 to 20 Discord role ids',
    ]);
    expect(problems({ type: 'x_follows', params: { userId: '@nebula' } })).toEqual([
      "requirements[0].params.userId must be the X account's numeric id (1 to 19 digits, as a string), not its @handle",
    ]);
    expect(problems({ type: 'x_account_age_days', params: { min: 0 } })).toEqual(['requirements[0].params.min must be a whole number of days (1–36500)']);
    expect(problems({ type: 'x_account_age_days', params: { min: 36_501, extra: true } })).toEqual([
      'requirements[0].params.min must be a whole number of days (1–36500)',
      'requirements[0].params.extra is not used by this type',
    ]);
  });

  it('refuses a provider no account can be linked with here', () => {
    expect(problems(req.follows, { providers: ['discord'] })).toEqual([
      'requirements[0].type x_follows reads X accounts, and none can be linked here: this platform has no X client configured',
    ]);
    expect(problems(req.member, { providers: ['discord'] })).toEqual([]);
  });
});
