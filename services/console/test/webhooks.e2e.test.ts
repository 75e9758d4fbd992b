import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RaffleApiError, RaffleManagementClient, verifyWebhook } from '@raffle/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsolePlatform } from './support/console-platform.js';
import { checkPage } from './support/page-checks.js';

type Platform = Awaited<ReturnType<typeof startConsolePlatform>>;
type Received = { path: string; headers: IncomingHttpHeaders; body: string };

/**
 * The developer's server: records every POST with its raw body (signatures cover the exact
 * bytes) and answers each path with the status the test sets for it, 200 by default.
 */
async function startReceiver() {
  const received: Received[] = [];
  const statusOf = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = statusOf.get(path) ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `receiver says ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    answer: (path: string, status: number) => statusOf.set(path, status),
    /** Every POST that carried this `webhook-id` (the event id). */
    deliveriesOf: (eventId: string) => received.filter((r) => r.headers['webhook-id'] === eventId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** services/webhook-dispatcher/src/plugins/dispatcher.ts: createEndpointDirectory's ttlMs. */
const SECRET_CACHE_MS = 1000;

let platform: Platform;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  [platform, receiver] = await Promise.all([startConsolePlatform(), startReceiver()]);
}, 240_000);

afterAll(async () => {
  await Promise.all([platform?.stop(), receiver?.close()]);
});

async function signIn(user: 'alice' | 'bob' | 'carol', path: string): Promise<Page> {
  const page = await platform.newPage();
  await page.goto(platform.signInUrl(user));
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
  await page.goto(`${platform.consoleUrl}${path}`);
  return page;
}

const nebulaWebhooks = () => `/w/${platform.demo.workspaces.nebula.id}/webhooks`;

/** Registers an endpoint through the form; returns the secret the page shows once. */
async function createEndpoint(page: Page, url: string, eventTypes: string[], options: { description?: string; shot?: string } = {}): Promise<string> {
  await page.getByRole('button', { name: 'New endpoint' }).click();
  const form = page.getByRole('region', { name: 'New webhook endpoint' });
  await form.getByLabel('Endpoint URL').fill(url);
  if (options.description) await form.getByLabel('Description (optional)').fill(options.description);
  for (const type of eventTypes) await form.getByRole('checkbox', { name: type, exact: true }).check();
  if (options.shot) await checkPage(page, options.shot);
  await form.getByRole('button', { name: 'Create endpoint' }).click();
  const secret = (await page.getByTestId('secret-value').textContent({ timeout: 10_000 }))!.trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
  await page.getByRole('link', { name: 'Open the endpoint' }).click();
  await page.getByRole('heading', { level: 1, name: url }).waitFor();
  return secret;
}

/** Clicks a confirm button and then the same action in its dialog. */
async function confirm(page: Page, label: string, expectText: RegExp): Promise<void> {
  await page.getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: label });
  await expect(dialog.textContent()).resolves.toMatch(expectText);
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Sends a test event from the page; returns its event id as the feedback names it. */
async function sendTestEvent(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Send test event' }).click();
  const toast = page.locator('.toast-success').filter({ hasText: /Test event \S+ sent/ }).last();
  const text = await toast.textContent({ timeout: 10_000 });
  return /Test event (\S+) sent/.exec(text ?? '')![1]!;
}

/** The delivery log's card of this event's newest attempt, found by the page's own polling (no reload). */
const newestAttemptOf = (page: Page, eventId: string) => page.locator(`li[data-event-id="${eventId}"]`).first();

const endpointBadge = (page: Page, text: 'Enabled' | 'Disabled') => page.locator('.wh-badge', { hasText: new RegExp(`^${text}$`) });

/** Sends test events, a cache lifetime apart, until one verifies with `secret` alone; false if none of `tries` does. */
async function signedWithSecretWithin(page: Page, secret: string, tries: number): Promise<boolean> {
  for (let i = 0; i < tries; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, SECRET_CACHE_MS + 200));
    const eventId = await sendTestEvent(page);
    const [delivered] = await waitForReceived(eventId);
    try {
      verifyWebhook(delivered!.body, delivered!.headers, secret);
      return true;
    } catch {
      // Signed with the previous secret only: look again after the cache's lifetime.
    }
  }
  return false;
}

async function waitForReceived(eventId: string, count = 1): Promise<Received[]> {
  await expect.poll(() => receiver.deliveriesOf(eventId).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(count);
  return receiver.deliveriesOf(eventId);
}

describe('webhooks pages', () => {
  it('alice registers an endpoint, tests it, disables, enables, rotates its secret, edits and deletes it', async () => {
    const page = await signIn('alice', nebulaWebhooks());
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    await checkPage(page, 'webhooks-list');

    const url = receiver.url('/ok');
    const secret = await createEndpoint(page, url, ['raffle.published', 'entry.created'], { description: 'Journey receiver', shot: 'webhooks-create' });
    const endpointId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    await expect(page.getByRole('list', { name: 'Subscribed event types' }).textContent()).resolves.toMatch(/raffle\.published.*entry\.created/);
    // Shown once: the endpoint page never has it.
    await expect(page.content()).resolves.not.toContain(secret);

    await page.getByText('No deliveries yet').waitFor();
    const eventId = await sendTestEvent(page);
    const attempt = newestAttemptOf(page, eventId);
    await attempt.getByText('Delivery succeeded').waitFor({ timeout: 20_000 });
    await expect(attempt.textContent()).resolves.toMatch(/webhook\.test[\s\S]*HTTP 200[\s\S]*\d+ ms/);
    // The payload it sent, collapsed until asked for, as indented JSON.
    const payload = attempt.locator('details', { has: page.locator('summary', { hasText: 'Payload sent' }) });
    expect(await payload.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    await payload.locator('summary').click();
    const sentText = (await payload.locator('pre').textContent())!;
    expect(sentText).toContain('"type": "webhook.test"');
    expect(JSON.parse(sentText)).toMatchObject({ type: 'webhook.test', data: { endpointId } });

    const [delivered] = await waitForReceived(eventId);
    const event = verifyWebhook(delivered!.body, delivered!.headers, secret);
    expect(event.type).toBe('webhook.test');
    expect(delivered!.path).toBe('/ok');
    await checkPage(page, 'webhook-endpoint');

    await confirm(page, 'Disable', /receives nothing/);
    await page.getByText('Endpoint disabled.').waitFor();
    await endpointBadge(page, 'Disabled').waitFor();
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.getByText('Endpoint enabled.').waitFor();
    await endpointBadge(page, 'Enabled').waitFor();

    await confirm(page, 'Rotate secret', /shown once[\s\S]*24 hours/);
    const rotated = (await page.getByRole('region', { name: 'Secret rotated' }).getByTestId('secret-value').textContent())!.trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    // During the rotation window a receiver accepts either secret (the SDK takes both)...
    const afterRotation = await sendTestEvent(page);
    await newestAttemptOf(page, afterRotation).getByText('Delivery succeeded').waitFor({ timeout: 20_000 });
    const [duringRotation] = await waitForReceived(afterRotation);
    expect(verifyWebhook(duringRotation!.body, duringRotation!.headers, [rotated, secret]).type).toBe('webhook.test');
    // ...and the new one alone verifies once the dispatcher's secret cache (a second) has caught up.
    expect(await signedWithSecretWithin(page, rotated, 3)).toBe(true);

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('region', { name: 'Edit endpoint' });
    await edit.getByLabel('Description (optional)').fill('Renamed receiver');
    await edit.getByRole('checkbox', { name: 'entry.created', exact: true }).uncheck();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Endpoint saved.').waitFor();
    await page.getByText('Renamed receiver').waitFor();
    await expect(page.getByRole('list', { name: 'Subscribed event types' }).textContent()).resolves.not.toContain('entry.created');

    await confirm(page, 'Delete endpoint', /cannot be undone/);
    await page.waitForURL((u) => u.pathname === nebulaWebhooks());
    await page.getByText('Endpoint deleted.').waitFor();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    await expect.poll(() => page.getByText(/Loading endpoints/).count()).toBe(0);
    expect(await page.getByRole('link', { name: url }).count()).toBe(0);
    const mgmt = new RaffleManagementClient({ token: platform.tokenFor('alice'), baseUrl: platform.managementUrl });
    const gone = await mgmt.workspaces.webhookEndpoints.get(platform.demo.workspaces.nebula.id, endpointId).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(RaffleApiError);
    expect((gone as RaffleApiError).status).toBe(404);
  }, 180_000);

  it('deleting an endpoint while its delivery log polls asks for nothing of it afterwards', async () => {
    const page = await signIn('alice', nebulaWebhooks());
    await createEndpoint(page, receiver.url('/deleted-while-watched'), ['raffle.published']);
    const endpointId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    // A test event sets the log polling every 2 s, as it does for the half minute after a send.
    const eventId = await sendTestEvent(page);
    await newestAttemptOf(page, eventId).getByText('Delivery succeeded').waitFor({ timeout: 20_000 });
    await page.getByText(/checking for new attempts every 2 seconds/).waitFor();

    const asksAfterDelete: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes(endpointId) && response.request().method() === 'GET') asksAfterDelete.push(`${response.status()} ${response.url()}`);
    });
    await confirm(page, 'Delete endpoint', /cannot be undone/);
    await page.waitForURL((u) => u.pathname === nebulaWebhooks());
    await page.getByText('Endpoint deleted.').waitFor();
    // Two poll intervals and more: a log still polling would have asked by now.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(asksAfterDelete).toEqual([]);
    await checkPage(page, 'webhooks-after-delete');
  }, 120_000);

  it('a failing endpoint shows the failed attempt with its response code, retries it, and recovers it', async () => {
    const page = await signIn('alice', nebulaWebhooks());
    const path = '/failing';
    receiver.answer(path, 500);
    await createEndpoint(page, receiver.url(path), ['raffle.closed']);

    const eventId = await sendTestEvent(page);
    const attempt = newestAttemptOf(page, eventId);
    await attempt.getByText('HTTP 500').waitFor({ timeout: 20_000 });
    await expect(attempt.textContent()).resolves.toMatch(/failed \(http status\)/);
    await attempt.getByText('Delivery pending').waitFor();
    await attempt.getByText('Next retry').waitFor();
    // The schedule's second attempt comes 5 s after the first, the third minutes later: wait for the
    // second, so the retry below is the only attempt while the receiver answers 410.
    await waitForReceived(eventId, 2);
    await newestAttemptOf(page, eventId).getByText(/#2, failed/).waitFor({ timeout: 10_000 });

    // The receiver now answers 410 Gone: the retried delivery fails for good and disables the endpoint.
    receiver.answer(path, 410);
    await attempt.getByRole('button', { name: /^Retry/ }).click();
    await page.getByText(`Delivery of ${eventId} queued again.`).waitFor();
    await newestAttemptOf(page, eventId).getByText('HTTP 410').waitFor({ timeout: 20_000 });
    await newestAttemptOf(page, eventId).getByText('Delivery failed').waitFor({ timeout: 10_000 });
    await endpointBadge(page, 'Disabled').waitFor({ timeout: 10_000 });
    // A disabled endpoint can neither be retried nor recovered: the controls say why.
    expect(await newestAttemptOf(page, eventId).getByRole('button', { name: 'Retry' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Recover failed deliveries' }).isDisabled()).toBe(true);

    receiver.answer(path, 200);
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.getByText('Endpoint enabled.').waitFor();
    const anHourAgo = new Date(Date.now() - 3600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${anHourAgo.getFullYear()}-${pad(anHourAgo.getMonth() + 1)}-${pad(anHourAgo.getDate())}T${pad(anHourAgo.getHours())}:${pad(anHourAgo.getMinutes())}`;
    await page.getByLabel('Failed since (your local time)').fill(local);
    await page.getByRole('button', { name: 'Recover failed deliveries' }).click();
    await page.getByText('1 failed delivery queued again.').waitFor();
    await newestAttemptOf(page, eventId).getByText('Delivery succeeded').waitFor({ timeout: 20_000 });
    expect(receiver.deliveriesOf(eventId).length).toBeGreaterThanOrEqual(4);
  }, 180_000);

  it('in her personal space alice picks from the personal event types, sees the API refuse a bad URL, and tests an endpoint', async () => {
    const page = await signIn('alice', '/personal/webhooks');
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'New endpoint' }).click();
    const form = page.getByRole('region', { name: 'New webhook endpoint' });
    await form.getByRole('checkbox', { name: 'win.selected', exact: true }).waitFor();
    // The picker offers the personal audience's types only (raffle.* goes to workspaces).
    expect(await form.getByRole('checkbox', { name: 'raffle.published', exact: true }).count()).toBe(0);

    await form.getByLabel('Endpoint URL').fill('ftp://example.com/hook');
    await form.getByRole('checkbox', { name: 'win.selected', exact: true }).check();
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    const refusal = form.getByRole('alert');
    await expect(refusal.textContent({ timeout: 10_000 })).resolves.toMatch(/ftp:[\s\S]*Request id: \S+/);
    // The form keeps what was typed, to correct it.
    expect(await form.getByRole('checkbox', { name: 'win.selected', exact: true }).isChecked()).toBe(true);

    await form.getByLabel('Endpoint URL').fill(receiver.url('/personal'));
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = (await page.getByTestId('secret-value').textContent({ timeout: 10_000 }))!.trim();
    await page.getByRole('link', { name: 'Open the endpoint' }).click();
    const eventId = await sendTestEvent(page);
    await newestAttemptOf(page, eventId).getByText('Delivery succeeded').waitFor({ timeout: 20_000 });
    const [delivered] = await waitForReceived(eventId);
    expect(verifyWebhook(delivered!.body, delivered!.headers, secret).type).toBe('webhook.test');
  }, 120_000);

  it('a workspace member sees no webhook controls, only the reason', async () => {
    const kite = platform.demo.workspaces.kite.id;
    const page = await signIn('alice', `/w/${kite}/webhooks`);
    await page.getByText('Owners and admins only.').waitFor();
    expect(await page.getByRole('button', { name: 'New endpoint' }).count()).toBe(0);
    await checkPage(page, 'webhooks-member');

    await page.goto(`${platform.consoleUrl}/w/${kite}/webhooks/whe_someone_elses`);
    await page.getByText('Owners and admins only.').waitFor();
    for (const label of ['Send test event', 'Disable', 'Rotate secret', 'Delete endpoint', 'Recover failed deliveries']) {
      expect(await page.getByRole('button', { name: label }).count()).toBe(0);
    }
  }, 120_000);
});
