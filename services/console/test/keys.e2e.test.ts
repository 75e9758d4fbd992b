import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsolePlatform } from './support/console-platform.js';
import { checkPage } from './support/page-checks.js';

/** Git-ignored, beside the screenshots. */
const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));
const CONSOLE_DIR = fileURLToPath(new URL('../', import.meta.url));

const run = promisify(execFile);

/**
 * Runs the snippets the dialog shows after creating a key, as a developer pasting them would: the
 * curl command in a shell, the SDK example as a TypeScript module (tsx, from the console's folder,
 * which resolves @raffle/sdk) with RAFFLE_API_KEY set to the key.
 */
async function runUsageSnippets(dialog: Locator, secret: string): Promise<{ curl: unknown; sdk: string }> {
  const curl = (await dialog.getByTestId('usage-curl').textContent())!;
  const sdk = (await dialog.getByTestId('usage-sdk').textContent())!;
  const curlOut = await run('sh', ['-c', `${curl} --silent --show-error --fail-with-body`]);
  await mkdir(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, 'usage-snippet.mts');
  await writeFile(file, sdk);
  const sdkOut = await run(process.execPath, ['--conditions=development', '--import', 'tsx', file], {
    cwd: CONSOLE_DIR,
    env: { ...process.env, RAFFLE_API_KEY: secret },
  });
  return { curl: JSON.parse(curlOut.stdout), sdk: sdkOut.stdout.trim() };
}

type Platform = Awaited<ReturnType<typeof startConsolePlatform>>;

let platform: Platform;

beforeAll(async () => {
  platform = await startConsolePlatform();
}, 240_000);

afterAll(async () => {
  await platform?.stop();
});

/** Signs a demo user in through the printed link, then opens a console path. */
async function openAs(user: 'alice' | 'bob' | 'carol', path: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await platform.openAs(user, path, viewport ? { viewport } : undefined);
  await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  return page;
}

/** Calls the data plane with a key the way a developer's program would, outside the browser. */
async function dataPlaneStatus(apiKey: string, path: string): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${platform.dataPlaneUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = (await response.json().catch(() => ({}))) as { code?: string };
  return { status: response.status, code: body.code };
}

/** Revocation reaches the data plane through a broadcast: wait for it instead of sleeping. */
async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 3_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The plaintext as the secret view (SecretOnce) shows it: the key format is the prefix and 36 base62 characters. */
async function secretIn(dialog: Locator, prefix: 'svc_u_' | 'svc_w_'): Promise<string> {
  const value = dialog.getByTestId('secret-value');
  await value.waitFor({ timeout: 10_000 });
  const secret = (await value.textContent())!.trim();
  expect(secret).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{36}$`));
  return secret;
}

async function createKey(page: Page, name: string, scope: string, prefix: 'svc_u_' | 'svc_w_', shotName?: string): Promise<string> {
  await page.getByRole('button', { name: 'Create key', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('checkbox', { name: scope }).check();
  if (shotName) await checkPage(page, shotName);
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const secret = await secretIn(dialog, prefix);
  return secret;
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

async function revoke(page: Page, name: string): Promise<void> {
  await row(page, name).getByRole('button', { name: 'Revoke', exact: true }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.textContent()).resolves.toContain('cannot be undone');
  await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
  await row(page, name).getByText('revoked', { exact: true }).waitFor();
}

async function roll(page: Page, name: string, grace: RegExp, prefix: 'svc_u_' | 'svc_w_', shotName?: string): Promise<string> {
  await row(page, name).getByRole('button', { name: 'Roll', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: grace }).check();
  if (shotName) await checkPage(page, shotName);
  await dialog.getByRole('button', { name: 'Roll key' }).click();
  const secret = await secretIn(dialog, prefix);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'detached' });
  return secret;
}

describe('the API keys page', () => {
  it('personal: create a key, see it once, use it, revoke it, and the data plane refuses it', async () => {
    const page = await openAs('alice', '/personal/keys');
    await checkPage(page, 'keys-personal');

    const name = `journey ${Date.now()}`;
    const secret = await createKey(page, name, 'profile:read', 'svc_u_', 'keys-create-dialog');
    await checkPage(page, 'keys-secret');
    await expect(page.getByRole('dialog').getByRole('button', { name: /copy/i }).count()).resolves.toBeGreaterThan(0);

    // How to use it, ready to copy: a curl call carrying the key, and the same call through the SDK. Both work as pasted.
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('usage-curl').textContent()).resolves.toContain(`Bearer ${secret}`);
    await expect(dialog.getByRole('button', { name: 'Copy curl command' }).count()).resolves.toBe(1);
    await expect(dialog.getByRole('button', { name: 'Copy SDK example' }).count()).resolves.toBe(1);
    const used = await runUsageSnippets(dialog, secret);
    expect(used.curl).toMatchObject({ id: platform.demo.users.alice.id });
    expect(used.sdk).toBe(platform.demo.users.alice.handle);

    expect(await dataPlaneStatus(secret, '/api/v1/me')).toEqual({ status: 200, code: undefined });

    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    await row(page, name).waitFor();
    expect(await page.content()).not.toContain(secret);
    // The list shows the key by its prefix and last four only.
    await expect(row(page, name).textContent()).resolves.toContain(secret.slice(-4));

    await page.reload();
    await row(page, name).waitFor();
    expect(await page.content()).not.toContain(secret);

    await revoke(page, name);
    const refused = await eventually(
      () => dataPlaneStatus(secret, '/api/v1/me'),
      (r) => r.status === 401,
    );
    expect(refused).toEqual({ status: 401, code: 'API_KEY_REVOKED' });
    // Revoked keys offer no actions.
    await expect(row(page, name).getByRole('button').count()).resolves.toBe(0);
    await page.close();
  });

  it('workspace: roll with a grace period keeps the old key working; rolling with none ends it at once', async () => {
    const nebula = platform.demo.workspaces.nebula;
    const page = await openAs('alice', `/w/${nebula.id}/keys`);
    const rafflesPath = `/api/v1/workspaces/${nebula.id}/raffles`;

    const name = `ws journey ${Date.now()}`;
    const first = await createKey(page, name, 'raffles:read', 'svc_w_');
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    await row(page, name).waitFor();
    await checkPage(page, 'keys-workspace');
    expect((await dataPlaneStatus(first, rafflesPath)).status).toBe(200);

    const second = await roll(page, name, /1 hour/, 'svc_w_', 'keys-roll-dialog');
    expect(second).not.toBe(first);
    expect((await dataPlaneStatus(second, rafflesPath)).status).toBe(200);
    expect((await dataPlaneStatus(first, rafflesPath)).status).toBe(200);

    // Both rows are active now (the old one until its grace ends): roll the newest one.
    const activeRows = page.getByRole('row').filter({ hasText: name }).filter({ has: page.getByRole('button', { name: 'Roll', exact: true }) });
    await expect.poll(() => activeRows.count()).toBe(2);
    await activeRows.filter({ hasText: second.slice(-4) }).getByRole('button', { name: 'Roll', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: /stops working now/i }).check();
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    const third = await secretIn(dialog, 'svc_w_');
    await dialog.getByRole('button', { name: 'Done' }).click();

    expect((await dataPlaneStatus(third, rafflesPath)).status).toBe(200);
    const refused = await eventually(
      () => dataPlaneStatus(second, rafflesPath),
      (r) => r.status === 401,
    );
    expect(refused).toEqual({ status: 401, code: 'API_KEY_REVOKED' });
    expect((await dataPlaneStatus(first, rafflesPath)).status).toBe(200);
    await page.close();
  });

  it('with no keys yet, the page says what to do next', async () => {
    // Carol has no personal keys in the demo dataset, only her workspace's (packages/demo: demo-api-keys).
    const page = await openAs('carol', '/personal/keys');
    await page.getByText('No API keys yet').waitFor();
    await expect(page.getByRole('table').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Create key', exact: true }).isEnabled()).resolves.toBe(true);
    await checkPage(page, 'keys-empty');
    await page.close();
  });

  it('a member of a workspace sees why there are no key controls', async () => {
    // Alice is only a member of kite (packages/demo: demo-organisations).
    const kite = platform.demo.workspaces.kite;
    const page = await openAs('alice', `/w/${kite.id}/keys`);
    await page.getByText(/only owners and admins/i).first().waitFor();
    const create = page.getByRole('button', { name: 'Create key' });
    for (const button of await create.all()) expect(await button.isDisabled()).toBe(true);
    await expect(page.getByRole('button', { name: /^(Revoke|Roll)$/ }).count()).resolves.toBe(0);
    await expect(page.getByRole('table').count()).resolves.toBe(0);
    await checkPage(page, 'keys-workspace-member');
    await page.close();
  });

  it('shows an API error with its message and request id', async () => {
    const page = await openAs('alice', '/personal/keys');
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('past expiry');
    await dialog.getByRole('checkbox', { name: 'profile:read' }).check();
    await dialog.getByLabel('Expires').selectOption('custom');
    await dialog.getByLabel('Expiry date').fill('2020-01-01');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/developer/personal/api-keys') && r.request().method() === 'POST'),
      dialog.getByRole('button', { name: 'Create key' }).click(),
    ]);
    expect(response.status()).toBe(400);
    const body = (await response.json()) as { message: string | string[]; requestId: string };
    const alert = dialog.getByRole('alert');
    await alert.first().waitFor();
    const text = (await alert.allTextContents()).join(' ');
    expect(text).toContain('expiresAt must be in the future');
    expect(text).toContain(body.requestId);
    await page.close();
  });

  it('an intercepted 409 from management is shown the same way', async () => {
    const page = await openAs('alice', '/personal/keys');
    await page.route('**/api/developer/personal/api-keys', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            headers: { 'x-request-id': 'req_keys_e2e_409' },
            body: JSON.stringify({
              statusCode: 409,
              error: 'Conflict',
              message: 'API_KEY_LIMIT: at most 10 active keys are allowed; revoke one first',
              requestId: 'req_keys_e2e_409',
            }),
          })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('over the limit');
    await dialog.getByRole('checkbox', { name: 'profile:read' }).check();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const alert = dialog.getByRole('alert');
    await alert.first().waitFor();
    const text = (await alert.allTextContents()).join(' ');
    expect(text).toContain('at most 10 active keys');
    expect(text).toContain('req_keys_e2e_409');
    await page.close();
  });

  it('measures the first render of the keys page (recorded, not asserted)', async () => {
    const page = await platform.newPage();
    await page.goto(platform.signInUrl('alice'));
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    const started = Date.now();
    await page.goto(`${platform.consoleUrl}/personal/keys`);
    await page.getByRole('table').getByRole('row').nth(1).waitFor();
    const firstRowMs = Date.now() - started;
    const navigation = await page.evaluate(() => {
      const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return { domContentLoadedMs: entry?.domContentLoadedEventEnd, firstContentfulPaintMs: paint?.startTime };
    });
    const measurement = { page: '/personal/keys', firstKeyRowMs: firstRowMs, ...navigation, measuredAt: new Date().toISOString() };
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(path.join(ARTIFACTS, 'keys-first-render.json'), `${JSON.stringify(measurement, null, 2)}\n`);
    console.info('keys page first render', measurement);
    await page.close();
  });

  it('is usable at 390 px wide: each key is a card with every column in view, nothing scrolls sideways', async () => {
    const page = await openAs('alice', '/personal/keys', { width: 390, height: 844 });
    // Alice has demo keys, so the list is there.
    const region = page.getByRole('region', { name: 'API key list' });
    const first = region.getByRole('row').filter({ has: page.getByRole('rowheader') }).first();
    await first.waitFor();
    expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    // Name, key, scopes, created, last used, expires, status and the actions: each shown, inside the screen's width.
    const cells = [first.getByRole('rowheader'), ...(await first.getByRole('cell').all())];
    expect(cells).toHaveLength(8);
    for (const cell of cells) {
      expect(await cell.isVisible()).toBe(true);
      expect((await cell.innerText()).trim()).not.toBe('');
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    // Each value is under its column's name, as the table's header is out of sight.
    for (const column of ['Key', 'Scopes', 'Created', 'Last used', 'Expires', 'Status']) {
      expect(await first.getByText(column, { exact: true }).isVisible(), column).toBe(true);
    }
    const revoke = region.getByRole('button', { name: 'Revoke', exact: true }).first();
    const revokeBox = (await revoke.boundingBox())!;
    expect(revokeBox.x).toBeGreaterThanOrEqual(0);
    expect(revokeBox.x + revokeBox.width).toBeLessThanOrEqual(390);
    await revoke.click();
    await page.getByRole('dialog', { name: 'Revoke' }).getByRole('button', { name: 'Cancel' }).click();
    await checkPage(page, 'keys-cards');
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const box = await page.getByRole('dialog').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    await page.close();
  });
});
