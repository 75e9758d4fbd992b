import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsolePlatform } from './support/console-platform.js';
import { checkPage, forgetPageProblems } from './support/page-checks.js';

type Platform = Awaited<ReturnType<typeof startConsolePlatform>>;

let platform: Platform;

beforeAll(async () => {
  platform = await startConsolePlatform();
}, 240_000);

afterAll(async () => {
  await platform?.stop();
});

/** The demo user signed in, on the page with their wallets and connections. */
async function openConnections(user: 'alice' | 'carol'): Promise<Page> {
  const page = await platform.newPage();
  await page.goto(platform.signInUrl(user));
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Wallets' }).click();
  await page.getByRole('heading', { level: 2, name: 'Connections' }).waitFor();
  return page;
}

const providerRow = (page: Page, name: 'Discord' | 'X') => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

/**
 * Link at the stand-in: the console sends the browser to its consent page, the user picks the
 * demo account there, and the stand-in sends the browser back to the console's callback page.
 */
async function linkThroughConsent(page: Page, name: 'Discord' | 'X', account: string): Promise<void> {
  await providerRow(page, name).getByRole('button', { name: `Link ${name}`, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: `Local ${name}` }).waitFor();
  // The stand-ins label accounts as the providers show them: a Discord username, an X @handle.
  await page.getByRole('button', { name: `Continue as ${name === 'X' ? `@${account}` : account}` }).click();
  await page.waitForURL((url) => url.pathname === `/connections/${name.toLowerCase()}/callback`);
  await page.getByRole('status').filter({ hasText: `Your ${name} account ${account} is linked.` }).waitFor();
}

async function backToConnections(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Back to your wallets and connections' }).click();
  await page.getByRole('heading', { level: 2, name: 'Connections' }).waitFor();
}

async function unlink(page: Page, name: 'Discord' | 'X', account: string): Promise<void> {
  await providerRow(page, name).getByRole('button', { name: `Unlink ${name}`, exact: true }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.textContent()).resolves.toContain(account);
  await confirm.getByRole('button', { name: `Unlink ${name}`, exact: true }).click();
  await providerRow(page, name).getByText('Not linked').waitFor();
}

describe('Connections on the Wallets page', () => {
  it("links alice's Discord through the consent page, shows the account, and unlinks it after a confirmation", async () => {
    const page = await openConnections('alice');
    await providerRow(page, 'Discord').getByText('Not linked').waitFor();
    await checkPage(page, 'connections-none');

    await linkThroughConsent(page, 'Discord', 'alice');
    // The code and state are dropped from the address bar once read.
    expect(new URL(page.url()).search).toBe('');
    await checkPage(page, 'connections-callback-linked');

    await backToConnections(page);
    await providerRow(page, 'Discord').getByText('alice', { exact: true }).waitFor();
    await checkPage(page, 'connections-linked');

    await unlink(page, 'Discord', 'alice');
    await page.close();
  });

  it("links carol's X, lists it beside an unlinked Discord, then unlinks it", async () => {
    const page = await openConnections('carol');
    await linkThroughConsent(page, 'X', 'carol');
    await backToConnections(page);
    await providerRow(page, 'X').getByText('carol', { exact: true }).waitFor();
    await providerRow(page, 'Discord').getByText('Not linked').waitFor();
    await unlink(page, 'X', 'carol');
    await page.close();
  });

  it('declining at the provider shows why on the callback page, and nothing is linked', async () => {
    const page = await openConnections('alice');
    await providerRow(page, 'X').getByRole('button', { name: 'Link X', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Local X' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/connections/x/callback');
    const alert = page.getByRole('alert');
    await alert.first().waitFor();
    expect((await alert.allTextContents()).join(' ')).toContain('OAUTH_ACCESS_DENIED');
    // The refusal is the answer this journey expects; the browser reports every 4xx it loads.
    forgetPageProblems(page, /status of 403 .*\/api\/dashboard\/me\/connections\/x\/callback/);
    await checkPage(page, 'connections-callback-denied');
    await backToConnections(page);
    await providerRow(page, 'X').getByText('Not linked').waitFor();
    await page.close();
  });
});
