import { startLocalSocial, type LocalSocial } from '@raffle/service-kit/testing/local-social';
import type { SocialProvider } from '@raffle/social';
import { consentThrough, DEMO_ACCOUNTS, NEBULA, type DemoAccountName } from '@raffle/social/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { as, dashboardRaffles, type DashboardRaffles } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { registerSecret } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * Discord and X requirements through management (decision 0045), against the local stand-ins:
 * accounts linked through the connection routes, raffles refused when no account of the provider
 * can be linked here, web entries evaluated with the entrant's own token, the workspace shown only
 * {type, label, passed}, and a draw that re-reads the provider, or answers 503 PROVIDER_UNAVAILABLE
 * while it cannot. No token and no account id reaches a log line (the file's log scan).
 */

let testDb: TestDatabase;
let app: ManagementApp;
let social: LocalSocial;
let tenant: Tenant;
let api: DashboardRaffles;

const GUILD = NEBULA.discord.guildId;
const holder = { id: 'holder', type: 'discord_role', label: 'Holder role', params: { guildId: GUILD, roleIds: [NEBULA.discord.roles.holder.id], match: 'any' } };
const member = { id: 'member', type: 'discord_member', label: 'In the Nebula server', params: { guildId: GUILD } };
const follows = { id: 'follows', type: 'x_follows', label: 'Follows @nebula', params: { userId: NEBULA.x.userId } };

beforeAll(async () => {
  testDb = await createTestDatabase();
  social = await startLocalSocial();
  app = await buildTestApp(testDb.database, testDb.url, social.env);
  tenant = await seedTenant(testDb.database);
  api = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.owner.id);
  for (const account of Object.values(DEMO_ACCOUNTS)) {
    registerSecret(account.discord.id);
    registerSecret(account.x.id);
  }
});
afterAll(async () => {
  await app?.close();
  await social?.close();
  await testDb?.drop();
});

/** Links the demo account through the connection routes, as the console does after consent. */
async function link(userId: string, provider: SocialProvider, account: DemoAccountName) {
  const started = await app.inject({ method: 'POST', url: `/api/dashboard/me/connections/${provider}/start`, headers: as(userId) });
  expect(started.statusCode, started.body).toBe(201);
  const back = await consentThrough((started.json() as { authorizationUrl: string }).authorizationUrl, account);
  registerSecret(back.code!);
  const res = await app.inject({ method: 'POST', url: `/api/dashboard/me/connections/${provider}/callback`, headers: as(userId), payload: { state: back.state, code: back.code } });
  expect(res.statusCode, res.body).toBe(201);
}

async function entrant(accounts: Partial<Record<SocialProvider, DemoAccountName>>) {
  const user = await api.user();
  for (const [provider, account] of Object.entries(accounts) as [SocialProvider, DemoAccountName][]) await link(user.id, provider, account);
  return user;
}

describe('raffles requiring Discord and X', () => {
  it('are refused where no account of the provider can be linked', async () => {
    const bare = await buildTestApp(testDb.database, testDb.url, {});
    try {
      const bareApi = dashboardRaffles(bare, testDb.database, tenant.workspace.id, tenant.owner.id);
      const message = expectManagementError(await bareApi.create({ requirements: [holder] }), 400).message as string;
      expect(message).toBe('VALIDATION_FAILED: requirements[0].type discord_role reads Discord accounts, and none can be linked here: this platform has no Discord client configured');
    } finally {
      await bare.close();
    }
    const wrong = expectManagementError(await api.create({ requirements: [{ ...follows, params: { userId: '@nebula' } }] }), 400).message as string;
    expect(wrong).toContain("requirements[0].params.userId must be the X account's numeric id");
  });

  it('let a holder in, refuse the others naming the requirement, and show the workspace only type, label and passed', async () => {
    const raffle = await api.open({ requirements: [holder, follows] });
    const both = await entrant({ discord: 'alice', x: 'carol' });
    const entered = await api.enter(raffle.slug, both.id);
    expect(entered.statusCode, entered.body).toBe(201);
    expectSchema('SanitizedEntry', entered.json());
    expect(entered.json()).toMatchObject({
      status: 'valid',
      requirements: [
        { type: 'discord_role', label: 'Holder role', passed: true, detail: 'holds the required role in the Discord server' },
        { type: 'x_follows', label: 'Follows @nebula', passed: true, detail: 'follows the X account' },
      ],
    });

    const bob = await entrant({ discord: 'bob' });
    const refused = expectManagementError(await api.enter(raffle.slug, bob.id), 409).message as string;
    expect(refused).toMatch(/^REQUIREMENTS_NOT_MET: /);
    expect(refused).toContain('Holder role: does not hold the required role in the Discord server');
    expect(refused).toContain('Follows @nebula: no X account linked: link your X account');

    const entryId = (entered.json() as { id: string }).id;
    const results = await app.inject({ method: 'GET', url: `${api.raffleUrl(raffle.id)}/entries/${entryId}/requirements`, headers: as(tenant.owner.id) });
    expect(results.statusCode, results.body).toBe(200);
    expectSchema('EntryRequirementResults', results.json());
    expect(results.json()).toEqual({
      entryId,
      status: 'valid',
      requirements: [
        { type: 'discord_role', label: 'Holder role', passed: true },
        { type: 'x_follows', label: 'Follows @nebula', passed: true },
      ],
    });
  });

  it('draw: 503 PROVIDER_UNAVAILABLE with Retry-After while Discord is down (nothing done), then an entrant who unlinked is not drawn', async () => {
    const raffle = await api.open({ requirements: [member], spots: 5 });
    const kept = await entrant({ discord: 'alice' });
    const losing = await entrant({ discord: 'bob' });
    for (const user of [kept, losing]) expect((await api.enter(raffle.slug, user.id)).statusCode).toBe(201);
    await api.ok(raffle.id, 'close');

    social.discord.faults.down('guildMember');
    try {
      const waiting = await api.act(raffle.id, 'draw');
      expect(expectManagementError(waiting, 503).message).toMatch(/^PROVIDER_UNAVAILABLE: Discord, which the raffle's requirements read, did not answer/);
      expect(waiting.headers['retry-after']).toBe('10');
      expect((await api.entries(raffle.id)).data.map((e) => e.status)).toEqual(['valid', 'valid']);
    } finally {
      social.discord.faults.clear();
    }

    // The second entrant unlinks their Discord account before the draw: the draw finds no link.
    const unlinked = await app.inject({ method: 'DELETE', url: '/api/dashboard/me/connections/discord', headers: as(losing.id) });
    expect(unlinked.statusCode, unlinked.body).toBe(204);
    const drawn = await api.ok(raffle.id, 'draw');
    expect(drawn.status).toBe('drawn');
    const entries = (await api.entries(raffle.id)).data;
    expect(entries.find((e) => e.userId === losing.id)).toMatchObject({ status: 'invalid', statusReason: 'Requirements not met: In the Nebula server' });
    expect((await api.wins(raffle.id)).map((w) => w.userId)).toEqual([kept.id]);
  });

  it('flag two entrants sharing one Discord account (discordReuse), shown to the workspace', async () => {
    const raffle = await api.open({ requirements: [holder] });
    const first = await entrant({ discord: 'alice' });
    const second = await entrant({ discord: 'alice' });
    const a = (await api.enter(raffle.slug, first.id)).json() as { id: string };
    const b = (await api.enter(raffle.slug, second.id)).json() as { id: string };
    const entries = (await api.entries(raffle.id)).data as { id: string; duplicateFlags: Record<string, string[]> }[];
    // (Both came from the test's one IP too: ipReuse besides.)
    expect(entries.find((e) => e.id === a.id)!.duplicateFlags).toMatchObject({ discordReuse: [b.id] });
    expect(entries.find((e) => e.id === b.id)!.duplicateFlags).toMatchObject({ discordReuse: [a.id] });
  });
});
