import { RaffleApiError, RaffleManagementClient } from '@raffle/sdk';
import { consentThrough, DEMO_ACCOUNTS, NEBULA, type DemoAccountName } from '@raffle/social/local';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsolePlatform } from './support/console-platform.js';
import { checkPage } from './support/page-checks.js';

/**
 * Issue 36's journey: Discord and X accounts linked (through the local stand-ins' consent), a
 * raffle requiring the Holder role and an X follow created through the requirement editor, alice
 * let in and bob refused naming the role, then alice's role taken away in the local Discord before
 * the close: her entry is ineligible at the draw, and the entries list says so.
 */

type Platform = Awaited<ReturnType<typeof startConsolePlatform>>;
type DemoUser = 'alice' | 'bob' | 'carol';

let platform: Platform;

const GUILD = NEBULA.discord.guildId;
const HOLDER = NEBULA.discord.roles.holder.id;
const OG = NEBULA.discord.roles.og.id;

beforeAll(async () => {
  platform = await startConsolePlatform();
  // Alice follows Nebula on X for this journey (the demo has only carol following).
  platform.platform.social.x.setFollowing('alice', NEBULA.x.userId, true);
}, 240_000);

afterAll(async () => {
  await platform?.stop();
});

const managementAs = (user: DemoUser) => new RaffleManagementClient({ token: platform.tokenFor(user), baseUrl: platform.managementUrl });

/** Links a demo user's Discord or X account as the console does: start, consent at the stand-in, callback. */
async function link(user: DemoUser, provider: 'discord' | 'x', account: DemoAccountName) {
  const mgmt = managementAs(user);
  const started = await mgmt.me.connections.start(provider);
  const back = await consentThrough(started.authorizationUrl, account);
  await mgmt.me.connections.complete(provider, { state: back.state!, code: back.code! });
}

async function openAs(user: DemoUser, path: string): Promise<Page> {
  const page = await platform.newPage();
  await page.goto(platform.signInUrl(user));
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
  await page.goto(`${platform.consoleUrl}${path}`);
  return page;
}

let created: { raffleId: string; slug: string } | null = null;

describe('a raffle gated on Discord and X in the console', () => {
  it('is created through the requirement editor, each id checked beside its field', async () => {
    const nebula = platform.demo.workspaces.nebula;
    const suffix = Date.now().toString(36);
    const title = `Holders who follow ${suffix}`;
    const slug = `holders-follow-${suffix}`;
    const page = await openAs('alice', `/w/${nebula.id}/raffles/new`);
    await page.getByRole('heading', { level: 1, name: 'Create a raffle' }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Slug', { exact: true }).fill(slug);
    await page.getByLabel('Spots', { exact: true }).fill('5');

    await page.getByRole('button', { name: 'Add a requirement' }).click();
    const role = page.getByRole('group', { name: 'Requirement 1' });
    await role.getByLabel('Type', { exact: true }).selectOption('discord_role');
    expect(await role.getByLabel('Id', { exact: true }).inputValue()).toBe('discord_role-1');
    expect(await role.getByLabel('Label', { exact: true }).inputValue()).toBe('Holds the role in our Discord server');
    await page.getByText("Discord and X requirements are checked with each entrant's own linked account").waitFor();
    // A server name where its id goes, a role name among the ids: each named beside its field.
    await role.getByLabel('Discord server id').fill('Nebula');
    await role.getByText('Discord server id is 17 to 20 digits (a Discord id), not a name or a link.').waitFor();
    expect(await role.getByLabel('Discord server id').getAttribute('aria-invalid')).toBe('true');
    await role.getByLabel('Discord server id').fill(GUILD);
    await role.getByLabel('Role ids').fill(`${HOLDER}, Holder`);
    await role.getByText('"Holder" is not a Discord id (17 to 20 digits).').waitFor();
    await role.getByLabel('Role ids').fill(HOLDER);
    expect(await role.getByLabel('Entrants must hold').inputValue()).toBe('any');
    await role.getByLabel('Label', { exact: true }).fill('Holder role');

    await page.getByRole('button', { name: 'Add a requirement' }).click();
    const follows = page.getByRole('group', { name: 'Requirement 2' });
    await follows.getByLabel('Type', { exact: true }).selectOption('x_follows');
    await follows.getByLabel('X account id').fill('@nebula');
    await follows.getByText('X account id is the numeric id (1 to 19 digits), not the @handle.').waitFor();
    await checkPage(page, 'raffles-new-social-invalid');
    // Refused here: nothing is sent while a field is wrong.
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.locator('.hints').getByText(/Requirement 2: X account id is the numeric id/).waitFor();
    await follows.getByLabel('X account id').fill(NEBULA.x.userId);
    await follows.getByLabel('Label', { exact: true }).fill('Follows @nebula');

    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    const raffleId = new URL(page.url()).pathname.split('/').at(-1)!;
    const saved = await managementAs('alice').workspaces.raffles.get(nebula.id, raffleId);
    expect(saved.requirements.map((r) => [r.id, r.type, r.label, r.params])).toEqual([
      ['discord_role-1', 'discord_role', 'Holder role', { guildId: GUILD, roleIds: [HOLDER], match: 'any' }],
      ['x_follows-2', 'x_follows', 'Follows @nebula', { userId: NEBULA.x.userId }],
    ]);
    created = { raffleId, slug };
    await page.close();
  }, 180_000);

  it('lets alice in, refuses bob naming the role, and drops alice at the draw once her role is gone', async () => {
    expect(created, 'the raffle of the first test').not.toBeNull();
    const { raffleId, slug } = created!;
    const nebula = platform.demo.workspaces.nebula;
    await link('alice', 'discord', 'alice');
    await link('alice', 'x', 'alice');
    await link('bob', 'discord', 'bob');
    await link('bob', 'x', 'carol');
    await managementAs('alice').workspaces.raffles.publish(nebula.id, raffleId);

    const entry = await managementAs('alice').personal.entries.create(slug);
    expect(entry).toMatchObject({ status: 'valid', requirements: [{ passed: true }, { passed: true }] });
    const refusal = await managementAs('bob').personal.entries.create(slug).then(() => null, (e: unknown) => e);
    expect(refusal).toBeInstanceOf(RaffleApiError);
    expect((refusal as RaffleApiError).code).toBe('REQUIREMENTS_NOT_MET');
    expect((refusal as RaffleApiError).message).toContain('Holder role: does not hold the required role in the Discord server');

    // Alice loses the Holder role in the (local) Discord after entering and before the close.
    platform.platform.social.discord.setMemberRoles(GUILD, DEMO_ACCOUNTS.alice.discord.id, [OG]);
    await managementAs('alice').workspaces.raffles.close(nebula.id, raffleId);
    await managementAs('alice').workspaces.raffles.draw(nebula.id, raffleId);

    const page = await openAs('alice', `/w/${nebula.id}/raffles/${raffleId}`);
    const entries = page.getByRole('region', { name: 'Entries', exact: true });
    await entries.getByText(entry.id, { exact: true }).waitFor();
    await entries.getByText('Requirements not met: Holder role').waitFor();
    await entries.getByRole('button', { name: 'Show requirements' }).click();
    const results = entries.getByRole('list', { name: `Requirements of entry ${entry.id}` });
    await expect.poll(() => results.locator('li').allTextContents()).toEqual(['Failed: Holder role', 'Passed: Follows @nebula']);
    await checkPage(page, 'raffle-detail-social-dropped');
    await page.close();
  }, 180_000);
});
