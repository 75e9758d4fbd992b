import { readFile } from 'node:fs/promises';
import { WINNER_CSV_COLUMNS, WORKSPACE_ENTRY_CSV_COLUMNS } from '@raffle/contracts';
import { verifyAllowlistProof } from '@raffle/sdk';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsolePlatform, type ConsolePlatform } from './support/console-platform.js';
import { checkPage } from './support/page-checks.js';
import { deployAllowlistCheck } from './support/solidity-check.js';

let platform: ConsolePlatform;

beforeAll(async () => {
  platform = await startConsolePlatform();
}, 240_000);

afterAll(async () => {
  await platform?.stop();
});

/** The raffle the first test creates through the form; the second runs it to a published allowlist. */
let created: { raffleId: string; slug: string } | null = null;

/** The allowlist as alice (Nebula's owner) reads it through the SDK, outside the browser: what the page must agree with. */
const allowlistOf = (raffleId: string) => platform.managementAs('alice').workspaces.raffles.allowlist.get(platform.demo.workspaces.nebula.id, raffleId);
const leafOf = async (raffleId: string, address: string, version?: number) =>
  (await platform.managementAs('alice').workspaces.raffles.allowlist.leaves(platform.demo.workspaces.nebula.id, raffleId, { address, version }).page()).data[0];

/** Presses a confirmed button, confirms in its dialog and waits for the toast. */
async function confirmAction(page: Page, within: Locator, button: string, toast: string): Promise<void> {
  await within.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByText(toast).first().waitFor();
}

/** Presses a copy button, waits for its own "Copied" line beside it, and reads back what reached the clipboard. */
async function copied(page: Page, within: Locator, button: string): Promise<string> {
  const copy = within.getByRole('button', { name: button, exact: true });
  await copy.click();
  await copy.locator('xpath=following-sibling::span[1]').getByText('Copied to the clipboard.').waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Saves one of the CSV exports through its button; the request must carry the session's token. */
async function downloaded(page: Page, within: Locator, button: string): Promise<{ text: string; authorization: string | undefined }> {
  const requested = page.waitForRequest((request) => /\/exports\/(winners|entries)\.csv$/.test(new URL(request.url()).pathname));
  const [download] = await Promise.all([page.waitForEvent('download'), within.getByRole('button', { name: button }).click()]);
  const request = await requested;
  return { text: await readFile((await download.path())!, 'utf8'), authorization: (await request.allHeaders()).authorization };
}

/** The CSV's first line, without the UTF-8 byte order mark spreadsheets need. */
const headerRow = (csv: string) => csv.replace(/^\uFEFF/, '').split(/\r?\n/)[0];

describe('an allowlist raffle in the console', () => {
  it('takes the allowlist settings in the create form, for allowlist allocations only', async () => {
    const nebula = platform.demo.workspaces.nebula;
    const suffix = Date.now().toString(36);
    const title = `Allowlist Journey ${suffix}`;
    const page = await platform.openAs('alice', `/w/${nebula.id}/raffles/new`);
    await page.getByRole('heading', { level: 1, name: 'Create a raffle' }).waitFor();

    const settings = page.getByRole('group', { name: 'Allowlist' });
    expect(await page.getByLabel('Allocation').inputValue()).toBe('allowlist_gtd');
    await settings.waitFor();
    await page.getByLabel('Allocation').selectOption('airdrop');
    await settings.waitFor({ state: 'detached' });
    await page.getByLabel('Allocation').selectOption('allowlist_fcfs');
    await settings.waitFor();
    await page.getByLabel('Allocation').selectOption('allowlist_gtd');

    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Mechanic').selectOption('raffle');
    await page.getByLabel('Spots', { exact: true }).fill('1');
    await page.getByLabel('Chain (optional)').fill('ethereum');
    // A quantity the API would refuse is pointed out before anything is sent.
    await settings.getByLabel('Quantity per winner').fill('0');
    await page.getByText('The quantity per winner must be a whole number from 1 to 1,000,000.').waitFor();
    await settings.getByLabel('Quantity per winner').fill('2');
    await page.getByText('The quantity per winner must be a whole number').waitFor({ state: 'detached' });
    await settings.getByLabel('Publish every leaf of the allowlist on the public page').check();
    expect(await settings.getByLabel('Wallet deadline (optional, your time zone)').getAttribute('type')).toBe('datetime-local');
    await checkPage(page, 'raffles-new-allowlist');

    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    const raffleId = new URL(page.url()).pathname.split('/').at(-1)!;
    const saved = await platform.managementAs('alice').workspaces.raffles.get(nebula.id, raffleId);
    expect(saved.settings).toMatchObject({ allowlistQuantity: 2, allowlistPublic: true, walletDeadline: null });
    created = { raffleId, slug: saved.slug };

    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('every leaf on the public page').waitFor();
    expect(await details.locator('div', { has: page.getByText('Quantity per winner', { exact: true }) }).locator('dd').textContent()).toBe('2');
    // A draft's allowlist waits for its finalize.
    await page.getByRole('region', { name: 'Allowlist' }).getByTestId('allowlist-status').getByText('awaiting finalize').waitFor();

    // The edit form starts from the saved settings.
    await page.getByRole('button', { name: 'Edit raffle' }).click();
    const editing = page.getByRole('group', { name: 'Allowlist' });
    expect(await editing.getByLabel('Quantity per winner').inputValue()).toBe('2');
    expect(await editing.getByLabel('Publish every leaf of the allowlist on the public page').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Discard' }).click();
  });

  it('shows the published root, its versions after a reroll, a winner\'s proof, a non-winner refused, the CSV exports and a Solidity check that works on chain', async () => {
    expect(created, 'the first test creates the raffle').not.toBeNull();
    const { raffleId, slug } = created!;
    const nebula = platform.demo.workspaces.nebula;
    const alice = platform.managementAs('alice');

    // Two entrants with Ethereum wallets, one spot; drawn and finalized as a team's own tooling would.
    await alice.workspaces.raffles.publish(nebula.id, raffleId);
    await platform.managementAs('bob').personal.entries.create(slug);
    await platform.managementAs('carol').personal.entries.create(slug);
    await alice.workspaces.raffles.close(nebula.id, raffleId);
    // The draw waits for the close's beacon round: the SDK sleeps through each Retry-After.
    await alice.workspaces.raffles.draw(nebula.id, raffleId, {}, { maxRetries: 10 });
    await alice.workspaces.raffles.finalize(nebula.id, raffleId);

    const page = await platform.openAs('alice', `/w/${nebula.id}/raffles/${raffleId}`);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.consoleUrl });
    const section = page.getByRole('region', { name: 'Allowlist' });
    const status = section.getByTestId('allowlist-status');
    // Built by management's scheduler after the finalize; the section fetches it again until it is published.
    await status.getByText('Version 1 is published.').waitFor();

    const first = await allowlistOf(raffleId);
    expect(first.current).toMatchObject({ version: 1, count: 1, reason: 'finalized' });
    expect(await section.getByTestId('allowlist-root').textContent()).toBe(first.current!.root);
    expect(await copied(page, section, 'Copy root')).toBe(first.current!.root);

    // The winner is disqualified and the spot rerolled in the console: a new version, the old one kept.
    const [replaced] = (await alice.workspaces.raffles.wins.list(nebula.id, raffleId).page()).data;
    const winners = page.getByRole('region', { name: 'Winners', exact: true });
    await confirmAction(page, winners, 'Disqualify', 'Win at position 1 disqualified');
    await confirmAction(page, winners, 'Reroll', 'Position 1 rerolled');
    const replacement = (await alice.workspaces.raffles.wins.list(nebula.id, raffleId, { status: 'finalized' }).page()).data[0]!;
    expect(replacement.userId).not.toBe(replaced!.userId);
    const [winnerWallet, replacedWallet] = [replacement.walletSnapshot!, replaced!.walletSnapshot!];
    // A disqualification and a reroll each queue a build: the scheduler may publish one version for
    // both or one for each. The page must show whatever the API holds once the replacement is listed.
    await expect.poll(async () => (await leafOf(raffleId, winnerWallet))?.address.toLowerCase(), { timeout: 30_000 }).toBe(winnerWallet.toLowerCase());
    const latest = await allowlistOf(raffleId);
    expect(latest.current!.version).toBeGreaterThanOrEqual(2);
    expect(latest.current).toMatchObject({ count: 1, reason: 'winners_changed' });
    await status.getByText(`Version ${latest.current!.version} is published.`).waitFor();
    expect(await section.getByTestId('allowlist-root').textContent()).toBe(latest.current!.root);

    const history = section.getByRole('region', { name: 'Allowlist versions' });
    const rows = history.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(latest.versions.length);
    for (const [i, version] of latest.versions.entries()) {
      const cells = await rows.nth(i).locator('td').allTextContents();
      expect(cells.slice(0, 4)).toEqual([String(version.version), version.root, String(version.count), version.reason === 'finalized' ? 'finalized' : 'winners changed']);
    }
    expect(await rows.last().locator('td').first().textContent()).toBe('1');

    // The winner's wallet: quantity 2 and the served proof, checked in the browser and equal to the API's.
    const lookup = section.getByLabel('Wallet address');
    const result = section.getByTestId('allowlist-lookup-result');
    await lookup.fill(winnerWallet);
    await section.getByRole('button', { name: 'Look up' }).click();
    await result.getByText('Its proof checks against the root in this browser.').waitFor();
    expect(await result.locator('strong').textContent()).toBe('2');
    const served = (await leafOf(raffleId, winnerWallet))!;
    const shownProof = await result.getByTestId('allowlist-proof').locator('li').allTextContents().catch(() => []);
    expect(shownProof).toEqual(served.proof);
    expect(JSON.parse(await copied(page, result, 'Copy proof'))).toEqual(served.proof);
    expect(verifyAllowlistProof({ root: latest.current!.root, address: winnerWallet, quantity: 2n, proof: served.proof })).toBe(true);

    // The replaced winner is not on the current version (they were on version 1).
    await lookup.fill(replacedWallet);
    await section.getByRole('button', { name: 'Look up' }).click();
    await result.getByText(`is not on the allowlist (version ${latest.current!.version}).`).waitFor();

    // The Solidity check, as copied, compiles and admits the winner's proof on the platform's chain;
    // the replaced winner's version-1 proof no longer passes.
    const snippet = await copied(page, section, 'Copy the Solidity check');
    expect(snippet).toContain(`bytes32 public allowlistRoot = ${latest.current!.root};`);
    const isAllowed = await deployAllowlistCheck(platform.platform.chain.rpcUrl, snippet);
    expect(await isAllowed(winnerWallet, 2n, served.proof)).toBe(true);
    const oldLeaf = (await leafOf(raffleId, replacedWallet, 1))!;
    expect(await isAllowed(replacedWallet, 2n, oldLeaf.proof)).toBe(false);

    // The CSV exports, fetched with the session's token and saved as files.
    const winnersCsv = await downloaded(page, section, 'Download winners CSV');
    expect(winnersCsv.authorization).toMatch(/^Bearer /);
    expect(headerRow(winnersCsv.text)).toBe(WINNER_CSV_COLUMNS.join(','));
    expect(winnersCsv.text).toContain(winnerWallet);
    const entriesCsv = await downloaded(page, section, 'Download entries CSV');
    expect(headerRow(entriesCsv.text)).toBe(WORKSPACE_ENTRY_CSV_COLUMNS.join(','));

    await checkPage(page, 'raffle-allowlist');
  });
});
