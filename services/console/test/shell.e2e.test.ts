import { RaffleManagementClient } from '@raffle/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDevToken } from '../../management/src/cli/dev-token.js';
import { startConsolePlatform, type ConsolePlatform } from './support/console-platform.js';
import { checkPage, clearPageProblems } from './support/page-checks.js';

let platform: ConsolePlatform;

beforeAll(async () => {
  platform = await startConsolePlatform();
});

afterAll(async () => {
  await platform?.stop();
});

const storedToken = (page: Page) => page.evaluate(() => Object.values(sessionStorage).join('\n'));

async function signedInAs(user: 'alice' | 'bob' | 'carol'): Promise<Page> {
  const page = await platform.newPage();
  await page.goto(platform.signInUrl(user));
  await page.waitForURL('**/personal/keys');
  return page;
}

describe('signing in with the link start prints', () => {
  it('stores the token, drops it from the URL, and never lets it reach a server log', async () => {
    const token = platform.tokenFor('alice');
    const page = await platform.newPage();
    await page.goto(`${platform.consoleUrl}/sign-in#token=${token}`);
    await page.waitForURL('**/personal/keys');
    expect(page.url()).not.toContain('token');
    expect(page.url()).not.toContain('#');
    expect(await storedToken(page)).toContain(token);
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    // The keys page called the API through the console's proxy with this token.
    await expect
      .poll(() => platform.consoleLogLines().some((line) => line.includes('/api/developer/personal/api-keys')), { timeout: 10_000 })
      .toBe(true);
    const lines = platform.consoleLogLines();
    expect(lines.filter((line) => line.includes(token) || line.includes(token.split('.')[2]!))).toEqual([]);
    expect(platform.platform.logLines('management').filter((line) => line.includes(token))).toEqual([]);
  });

  it('names the signed-in user in the header, not their id', async () => {
    const page = await signedInAs('alice');
    const header = page.getByRole('banner');
    await header.getByText('Alice Moreau').waitFor();
    expect(await header.textContent()).not.toContain(platform.demo.users.alice.id);
    // The id is still there for whoever needs it, on hover.
    await expect(header.getByText('Alice Moreau').getAttribute('title')).resolves.toBe(`Signed in as Alice Moreau (${platform.demo.users.alice.id})`);
    await checkPage(page, 'shell-signed-in-user');
  });

  it('names a signed-in user who belongs to no workspace too', async () => {
    const user = platform.userWithoutWorkspace;
    const page = await platform.newPage();
    await page.goto(user.signInUrl);
    await page.waitForURL('**/personal/keys');
    const header = page.getByRole('banner');
    await header.getByText(user.displayName).waitFor();
    expect(await header.textContent()).not.toContain(user.id);
    await expect(header.getByText(user.displayName).getAttribute('title')).resolves.toBe(`Signed in as ${user.displayName} (${user.id})`);
  });

  it('measures the keys page first render (navigation start to the keys table)', async () => {
    const page = await platform.newPage();
    await page.goto(platform.signInUrl('alice'));
    await page.locator('main table, main .empty-state').first().waitFor({ state: 'visible' });
    const ms = await page.evaluate(() => Math.round(performance.now()));
    console.log(`keys page first render: ${ms} ms from navigation start to the keys table (no assert)`);
    expect(ms).toBeGreaterThan(0);
  });

  it('passes the page checks on the sign-in page and on the signed-in shell', async () => {
    const signIn = await platform.newPage();
    await signIn.goto(`${platform.consoleUrl}/sign-in`);
    await signIn.getByRole('heading', { name: 'Sign in to the Raffle console' }).waitFor();
    await checkPage(signIn, 'sign-in');

    const page = await signedInAs('alice');
    await page.locator('main table, main .empty-state').first().waitFor({ state: 'visible' });
    await checkPage(page, 'shell-personal-keys');
  });
});

describe('the workspace switcher', () => {
  it("lists the personal space and every one of the user's workspaces with their role, and switches scope", async () => {
    const mgmt = new RaffleManagementClient({ token: platform.tokenFor('alice'), baseUrl: platform.managementUrl });
    const expected: string[] = ['Personal'];
    for await (const w of mgmt.workspaces.list()) expected.push(`${w.name} (${w.role})`);
    expect(expected.length).toBeGreaterThan(1);

    const page = await signedInAs('alice');
    const switcher = page.getByLabel('Space');
    await expect.poll(() => switcher.locator('option').allTextContents()).toEqual(expected);

    const nebula = platform.demo.workspaces.nebula;
    await switcher.selectOption(nebula.id);
    await page.waitForURL(`**/w/${nebula.id}/keys`);
    await page.getByRole('link', { name: 'Raffles' }).click();
    await page.waitForURL(`**/w/${nebula.id}/raffles`);
    // Raffles live only in workspaces: back in the personal space the section falls back to keys.
    await switcher.selectOption('personal');
    await page.waitForURL('**/personal/keys');
  });

  it('says so when the user is not a member of the workspace in the URL', async () => {
    const page = await signedInAs('alice');
    await page.goto(`${platform.consoleUrl}/w/wsp_00000000000000000000000000/keys`);
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('You are not a member of workspace');
  });
});

describe('signing out and expired sessions', () => {
  it('signs out: the token is gone and the pages need signing in again', async () => {
    const page = await signedInAs('alice');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('You signed out.');
    expect(await storedToken(page)).toBe('');
    await page.goto(`${platform.consoleUrl}/personal/webhooks`);
    await page.waitForURL('**/sign-in');
  });

  it('an expired token lands on sign-in with the message', async () => {
    const expired = platform.tokenFor('alice', { ttlSeconds: -60 });
    const page = await platform.newPage();
    await page.goto(`${platform.consoleUrl}/sign-in#token=${expired}`);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Your session expired. Sign in again.');
    expect(page.url()).toBe(`${platform.consoleUrl}/sign-in`);
    expect(await storedToken(page)).toBe('');
  });

  it('a token that expires while the console is open signs out with the message', async () => {
    const page = await platform.newPage();
    await page.goto(`${platform.consoleUrl}/sign-in#token=${platform.tokenFor('alice', { ttlSeconds: 3 })}`);
    await page.waitForURL('**/personal/keys');
    await page.waitForURL('**/sign-in', { timeout: 10_000 });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Your session expired. Sign in again.');
  });

  it('a token the API refuses (401) signs out with the message', async () => {
    const forged = signDevToken('not-the-platform-secret-but-long-enough-to-sign', { sub: platform.demo.users.alice.id, ttlSeconds: 3600 });
    const page = await platform.newPage();
    await page.goto(`${platform.consoleUrl}/sign-in#token=${forged}`);
    await page.waitForURL('**/sign-in', { timeout: 15_000, waitUntil: 'commit' });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Your session expired. Sign in again.');
    expect(await storedToken(page)).toBe('');
    clearPageProblems(page); // the refused requests are expected console errors
  });

  it('a garbage token is refused on the sign-in page with an explanation', async () => {
    const page = await platform.newPage();
    await page.goto(`${platform.consoleUrl}/sign-in#token=not-a-jwt`);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('That is not a session token');
    expect(page.url()).toBe(`${platform.consoleUrl}/sign-in`);
    // Pasting a good token into the form still works.
    await page.getByLabel('Session token').fill(platform.tokenFor('bob'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/personal/keys');
  });
});
