import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsolePlatform } from './support/console-platform.js';
import { checkPage, clearPageProblems, forgetPageProblems } from './support/page-checks.js';

type Platform = Awaited<ReturnType<typeof startConsolePlatform>>;

let platform: Platform;

beforeAll(async () => {
  platform = await startConsolePlatform();
}, 240_000);

afterAll(async () => {
  await platform?.stop();
});

/** Presses a lifecycle (or any confirmed) button, then confirms in its dialog and waits for the toast. */
async function confirmAction(page: Page, button: string, toast: string, within: Locator = page.locator('body')): Promise<void> {
  await within.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByText(toast).first().waitFor();
}

/** The browser logs each 409 a draw meets before its beacon round exists: expected there. */
const DRAW_409 = /status of 409 \(Conflict\) \(http:[^)]*\/raffles\/raf_[0-9A-Z]+\/draw\)$/;

/**
 * Draws a closed raffle from the console while the draw route says its beacon round is not out yet
 * (409 DRAW_BEACON_PENDING, held here for as long as the test needs): the console shows the round
 * and a countdown, a cancel stops it sending, and left alone it sends the draw once the round is due.
 */
async function drawWaitingForTheBeacon(page: Page, workspaceId: string, raffleId: string): Promise<void> {
  const { beaconRound } = await platform.managementAs('alice').workspaces.raffles.get(workspaceId, raffleId);
  expect(beaconRound).toEqual(expect.any(Number));
  const drawPath = `/raffles/${raffleId}/draw`;
  const draws: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(drawPath)) draws.push(request.url());
  });
  // The next draws are answered "not yet, retry in N s", as management answers before the round.
  const held: number[] = [30, 2];
  await page.route(`**${drawPath}`, (route) => {
    const retryIn = held.shift();
    if (retryIn === undefined) return route.fallback();
    const message = `DRAW_BEACON_PENDING: the raffle draws with beacon round ${beaconRound}, which is not published yet; retry in ${retryIn} s`;
    return route.fulfill({
      status: 409,
      contentType: 'application/json',
      headers: { 'retry-after': String(retryIn), 'x-request-id': 'req_draw_e2e_409' },
      body: JSON.stringify({ statusCode: 409, error: 'Conflict', message, requestId: 'req_draw_e2e_409' }),
    });
  });
  const lifecycle = page.getByRole('region', { name: 'Lifecycle', exact: true });
  const waiting = lifecycle.getByTestId('draw-wait');
  const countdown = lifecycle.getByTestId('draw-countdown');
  const secondsShown = async () => Number(/^~(\d+) s$/.exec((await countdown.textContent()) ?? '')?.[1] ?? NaN);

  // Retry in 30 s: the wait is shown, not an error, and counts down; cancelling sends nothing more.
  await lifecycle.getByRole('button', { name: 'Draw winners', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Draw winners', exact: true }).click();
  await waiting.getByText(`Waiting for beacon round ${beaconRound}`).waitFor();
  expect(await lifecycle.getByRole('alert').count()).toBe(0);
  const first = await secondsShown();
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(30);
  await expect.poll(secondsShown).toBeLessThan(first);
  forgetPageProblems(page, DRAW_409);
  await checkPage(page, 'raffle-detail-draw-waiting');
  await waiting.getByRole('button', { name: 'Cancel the draw' }).click();
  await waiting.waitFor({ state: 'detached' });
  expect(draws).toHaveLength(1);
  expect(await page.locator('.page-header .badge').textContent()).toBe('closed');

  // Retry in 2 s: left alone, the console sends the draw when the round is due, and it is drawn.
  await lifecycle.getByRole('button', { name: 'Draw winners', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Draw winners', exact: true }).click();
  await waiting.getByText(`Waiting for beacon round ${beaconRound}`).waitFor();
  await page.getByText('Winners drawn').first().waitFor();
  expect(draws.length).toBeGreaterThanOrEqual(3);
  // The real draw may meet the real 409 too, right after the close (the local beacon's period is 1 s).
  forgetPageProblems(page, DRAW_409);
  await page.unroute(`**${drawPath}`);
}

describe('raffles in the console', () => {
  it('runs a raffle from draft to finalized through the UI and verifies its draw in the browser', async () => {
    const nebula = platform.demo.workspaces.nebula;
    const suffix = Date.now().toString(36);
    const title = `Console Journey ${suffix}`;
    const slug = `console-journey-${suffix}`;
    const page = await platform.openAs('alice', `/w/${nebula.id}/raffles`);

    await page.getByRole('heading', { level: 1, name: 'Raffles' }).waitFor();
    // The demo's Nebula raffles are listed; the status filter narrows the loaded page.
    await page.getByRole('link', { name: 'Nebula beta testers' }).or(page.locator('table')).first().waitFor();
    await checkPage(page, 'raffles-list');
    await page.getByLabel('Status', { exact: true }).selectOption('cancelled');
    // The filter is applied on the server: wait for the refetched page (the demo's cancelled launch
    // party is in it), then every row on it is cancelled.
    await page.getByRole('link', { name: 'Nebula launch party guest list' }).waitFor();
    const badges = page.locator('tbody tr .badge');
    await expect.poll(async () => [...new Set(await badges.allTextContents())]).toEqual(['cancelled']);
    await page.getByLabel('Status', { exact: true }).selectOption('all');

    await page.getByRole('link', { name: 'Create a raffle' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Create a raffle' }).waitFor();
    await checkPage(page, 'raffles-new');

    // An empty title is refused beside its field, before anything is sent (the API would answer 400).
    const creates: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith(`/workspaces/${nebula.id}/raffles`)) creates.push(request.url());
    });
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByText('Give the raffle a title.').waitFor();
    expect(await page.getByLabel('Title', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(creates).toEqual([]);

    // Typing the title fills the slug, until the slug is edited by hand.
    await page.getByLabel('Title', { exact: true }).pressSequentially(title);
    expect(await page.getByLabel('Slug', { exact: true }).inputValue()).toBe(slug);
    expect(await page.getByText('Give the raffle a title.').count()).toBe(0);
    // A bad slug reaches the API, and its validation message is shown (not a blank failure).
    await page.getByLabel('Slug', { exact: true }).fill('Not A Slug');
    await page.getByLabel('Title', { exact: true }).pressSequentially(' 2');
    expect(await page.getByLabel('Slug', { exact: true }).inputValue()).toBe('Not A Slug');
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByRole('button', { name: 'Create draft' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/slug/i);
    // The browser logs the refused request (400) as a console error: expected here.
    clearPageProblems(page);

    await page.getByLabel('Slug', { exact: true }).fill(slug);
    await page.getByLabel('Mechanic').selectOption('raffle');
    await page.getByLabel('Visibility').selectOption('public');
    await page.getByLabel('Spots', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByText(`Draft "${title}" created`).waitFor();

    // A draft offers exactly publish and cancel.
    const lifecycle = page.getByRole('region', { name: 'Lifecycle', exact: true });
    expect(await lifecycle.getByRole('button').allTextContents()).toEqual(['Publish', 'Cancel raffle']);
    await checkPage(page, 'raffle-detail-draft');

    await confirmAction(page, 'Publish', 'Raffle published');
    await expect.poll(() => page.locator('.page-header .badge').textContent()).toBe('open');
    expect(await lifecycle.getByRole('button').allTextContents()).toEqual(['Close entries', 'Cancel raffle']);

    // An open raffle still takes a new title, but no longer a new slug or number of spots.
    await page.getByRole('button', { name: 'Edit raffle' }).click();
    expect(await page.getByLabel('Slug', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Spots', { exact: true }).isDisabled()).toBe(true);
    await page.getByLabel('Title', { exact: true }).fill(`${title} (edited)`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Raffle saved').waitFor();
    await page.getByRole('heading', { level: 1, name: `${title} (edited)` }).waitFor();

    // Two other demo users enter through the management API, as the dashboard's own entry form would.
    const raffleId = new URL(page.url()).pathname.split('/').at(-1)!;
    await platform.managementAs('bob').personal.entries.create(slug);
    await platform.managementAs('carol').personal.entries.create(slug);
    const listed = await platform.managementAs('alice').workspaces.raffles.entries.list(nebula.id, raffleId).page();
    expect(listed.data).toHaveLength(2);

    await page.reload();
    const entries = page.getByRole('region', { name: 'Entries', exact: true });
    await expect.poll(() => entries.locator('tbody tr').count()).toBe(2);
    for (const entry of listed.data) await entries.getByText(entry.id, { exact: true }).waitFor();

    await confirmAction(page, 'Close entries', 'Raffle closed');
    await drawWaitingForTheBeacon(page, nebula.id, raffleId);
    await expect.poll(() => page.locator('.page-header .badge').textContent()).toBe('drawn');
    await confirmAction(page, 'Finalize', 'Raffle finalized');
    await expect.poll(() => page.locator('.page-header .badge').textContent()).toBe('finalized');
    expect(await lifecycle.getByRole('button').count()).toBe(0);

    const winners = page.getByRole('region', { name: 'Winners', exact: true });
    await expect.poll(() => winners.locator('tbody tr').count()).toBe(1);
    const [win] = (await platform.managementAs('alice').workspaces.raffles.wins.list(nebula.id, raffleId).page()).data;
    expect(win?.status).toBe('finalized');
    await winners.getByText(win!.entryId, { exact: true }).waitFor();

    const proof = page.getByRole('region', { name: 'Draw proof', exact: true });
    await proof.getByRole('button', { name: 'Verify in this browser' }).click();
    await expect.poll(() => proof.getByTestId('verdict').textContent()).toMatch(/^VALID/);
    expect(await proof.getByTestId('proof-winners').locator('tbody tr').count()).toBe(1);
    await proof.getByTestId('proof-winners').getByText(win!.entryId, { exact: true }).waitFor();
    await checkPage(page, 'raffle-detail-finalized');

    // Delivery status of the finalized win, recorded from the winners table.
    await winners.getByLabel('Delivery status of position 1').selectOption('processing');
    await winners.getByRole('button', { name: 'Save delivery' }).click();
    await page.getByText('Delivery of position 1 recorded').waitFor();
    const [updated] = (await platform.managementAs('alice').workspaces.raffles.wins.list(nebula.id, raffleId).page()).data;
    expect(updated?.deliveryStatus).toBe('processing');

    // Disqualify the win, then reroll its position: the other entrant takes it.
    await confirmAction(page, 'Disqualify', 'Win at position 1 disqualified', winners);
    await confirmAction(page, 'Reroll', 'Position 1 rerolled', winners);
    const other = listed.data.find((e) => e.id !== win!.entryId)!;
    await winners.getByText(other.id, { exact: true }).waitFor();
    await winners.getByText('replaced', { exact: true }).waitFor();
    await page.close();
  }, 180_000);

  it('shows a workspace member no lifecycle or mutating controls', async () => {
    const kite = platform.demo.workspaces.kite;
    const drawn = platform.demo.raffles.drawnPrivate!;
    // alice is a member of Kite: the drawn raffle could be finalized by its owner, not by her.
    const page = await platform.openAs('alice', `/w/${kite.id}/raffles/${drawn.id}`);
    await page.getByRole('heading', { level: 1, name: 'Kite members merch drop' }).waitFor();
    const lifecycle = page.getByRole('region', { name: 'Lifecycle', exact: true });
    await lifecycle.getByText('Only owners and admins').waitFor();
    expect(await lifecycle.getByRole('button').count()).toBe(0);
    await page.getByRole('region', { name: 'Winners', exact: true }).locator('tbody tr').first().waitFor();
    expect(await page.getByRole('button', { name: 'Disqualify' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Reroll' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit raffle' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save delivery' }).count()).toBe(0);
    // A private raffle has no public proof, and the page says why instead of failing.
    await page.getByRole('region', { name: 'Draw proof', exact: true }).getByText('This raffle is private').waitFor();
    await checkPage(page, 'raffle-detail-member');

    await page.goto(`${platform.consoleUrl}/w/${kite.id}/raffles`);
    await page.getByRole('heading', { level: 1, name: 'Raffles' }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    expect(await page.getByRole('link', { name: 'Create a raffle' }).count()).toBe(0);
    await page.close();
  }, 120_000);
});
